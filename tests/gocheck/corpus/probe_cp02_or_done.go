// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a repeat generator read through an or-done wrapper; the wrapper's forwarding send does not
//   select on done, so when the consumer breaks and closes done it can be left blocked on valStream.

package main

import "fmt"

func repeat(done <-chan struct{}, values ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for {
			for _, v := range values {
				select {
				case <-done:
					return
				case out <- v:
				}
			}
		}
	}()
	return out
}

func orDone(done <-chan struct{}, c <-chan int) <-chan int {
	valStream := make(chan int)
	go func() {
		defer close(valStream)
		for {
			select {
			case <-done:
				return
			case v, ok := <-c:
				if !ok {
					return
				}
				valStream <- v // BUG: should be a select with <-done
			}
		}
	}()
	return valStream
}

func main() {
	done := make(chan struct{})
	sum := 0
	for v := range orDone(done, repeat(done, 1, 2, 3)) {
		sum += v
		if sum >= 5 {
			break
		}
	}
	close(done)
	fmt.Println("sum", sum)
}
