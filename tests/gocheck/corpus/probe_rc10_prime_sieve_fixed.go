// want: ok
// source: the well-known concurrent prime sieve, with the cancellation every real use needs
// what: all stages select on a quit channel; after taking 10 primes main closes quit and waits
//   for the generator and all filters to return.
package main

import (
	"fmt"
	"sync"
)

func generate(ch chan<- int, quit <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 2; ; i++ {
		select {
		case ch <- i:
		case <-quit:
			return
		}
	}
}

func filter(in <-chan int, out chan<- int, prime int, quit <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		var i int
		select {
		case i = <-in:
		case <-quit:
			return
		}
		if i%prime != 0 {
			select {
			case out <- i:
			case <-quit:
				return
			}
		}
	}
}

func main() {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	ch := make(chan int)
	wg.Add(1)
	go generate(ch, quit, &wg)
	for i := 0; i < 10; i++ {
		prime := <-ch
		fmt.Println(prime)
		next := make(chan int)
		wg.Add(1)
		go filter(ch, next, prime, quit, &wg)
		ch = next
	}
	close(quit)
	wg.Wait()
}
