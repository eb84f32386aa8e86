// want: partial-deadlock
// source: the well-known concurrent prime sieve (Go tour / Rosetta Code 'Sieve of Eratosthenes')
// what: main takes the first 10 primes and returns; the generator and every filter goroutine
//   stay blocked for ever sending the next candidate to a stage nobody reads any more.
package main

import "fmt"

func generate(ch chan<- int) {
	for i := 2; ; i++ {
		ch <- i
	}
}

func filter(in <-chan int, out chan<- int, prime int) {
	for {
		i := <-in
		if i%prime != 0 {
			out <- i
		}
	}
}

func main() {
	ch := make(chan int)
	go generate(ch)
	for i := 0; i < 10; i++ {
		prime := <-ch
		fmt.Println(prime)
		next := make(chan int)
		go filter(ch, next, prime)
		ch = next
	}
}
