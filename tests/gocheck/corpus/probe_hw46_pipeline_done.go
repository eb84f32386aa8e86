// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of the Go blog "pipelines and cancellation" stages
// what: the consumer takes two squares and closes done; gen watches done but the sq stage
//   sends without selecting on done, so sq stays blocked on its output send (a leak)
package main

import "fmt"

func gen(done <-chan struct{}, nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			select {
			case out <- n:
			case <-done:
				return
			}
		}
	}()
	return out
}

func sq(done <-chan struct{}, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			out <- n * n // BUG: should select on done too
		}
	}()
	return out
}

func main() {
	done := make(chan struct{})
	out := sq(done, gen(done, 1, 2, 3, 4))
	fmt.Println(<-out, <-out)
	close(done)
}
