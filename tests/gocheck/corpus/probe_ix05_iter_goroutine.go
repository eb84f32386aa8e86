// want: partial-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: an iterator backed by a producer goroutine; the consumer breaks early and the producer stays blocked sending

package main

import (
	"fmt"
	"iter"
)

func Numbers(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		ch := make(chan int)
		go func() {
			for i := 0; i < n; i++ {
				ch <- i
			}
			close(ch)
		}()
		for v := range ch {
			if !yield(v) {
				return
			}
		}
	}
}

func main() {
	for v := range Numbers(5) {
		if v == 2 {
			break
		}
		fmt.Println(v)
	}
}
