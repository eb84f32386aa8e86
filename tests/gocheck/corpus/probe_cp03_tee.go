// want: global-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a tee channel splits a generator's values into two outputs, but the caller only ranges over
//   the first; tee waits to hand the first value to the second output and main waits for the second value.

package main

import "fmt"

func generator(done <-chan struct{}, values ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, v := range values {
			select {
			case <-done:
				return
			case out <- v:
			}
		}
	}()
	return out
}

func tee(done <-chan struct{}, in <-chan int) (<-chan int, <-chan int) {
	out1 := make(chan int)
	out2 := make(chan int)
	go func() {
		defer close(out1)
		defer close(out2)
		for val := range in {
			var out1, out2 = out1, out2
			for i := 0; i < 2; i++ {
				select {
				case <-done:
				case out1 <- val:
					out1 = nil
				case out2 <- val:
					out2 = nil
				}
			}
		}
	}()
	return out1, out2
}

func main() {
	done := make(chan struct{})
	defer close(done)
	results, _ := tee(done, generator(done, 1, 2, 3)) // BUG: the audit side is dropped
	for v := range results {
		fmt.Println("result", v)
	}
}
