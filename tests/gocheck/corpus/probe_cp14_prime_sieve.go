// want: ok
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the concurrent prime sieve with a bound: the generator sends 2..12 and closes, each filter
//   closes its output when its input is closed, so main sees the last channel close after five primes.

package main

import "fmt"

func generate(limit int) <-chan int {
	ch := make(chan int)
	go func() {
		for i := 2; i <= limit; i++ {
			ch <- i
		}
		close(ch)
	}()
	return ch
}

func filter(in <-chan int, out chan<- int, prime int) {
	for i := range in {
		if i%prime != 0 {
			out <- i
		}
	}
	close(out)
}

func main() {
	ch := generate(12)
	for {
		prime, ok := <-ch
		if !ok {
			break
		}
		fmt.Println(prime)
		ch1 := make(chan int)
		go filter(ch, ch1, prime)
		ch = ch1
	}
}
