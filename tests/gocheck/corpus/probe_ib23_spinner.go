// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.1, spinner (with a done channel so the spinner stops)
// what: a spinner goroutine prints -\|/ every 100 microseconds while main computes fib(24)
//   slowly; main then closes done and waits for the spinner to acknowledge on stopped.

package main

import (
	"fmt"
	"time"
)

func main() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go spinner(100*time.Microsecond, done, stopped)
	const n = 24
	fibN := fib(n) // slow
	close(done)
	<-stopped
	fmt.Printf("\rFibonacci(%d) = %d\n", n, fibN)
}

func spinner(delay time.Duration, done <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	for {
		for _, r := range `-\|/` {
			select {
			case <-done:
				return
			default:
			}
			fmt.Printf("\r%c", r)
			time.Sleep(delay)
		}
	}
}

func fib(x int) int {
	if x < 2 {
		return x
	}
	return fib(x-1) + fib(x-2)
}
