// want: ok
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Stream's iter.Seq2 over a background reader goroutine, with a stop channel the iterator
//   closes (deferred) when it returns, early or not; the reader selects on it, so it always exits.

package main

import (
	"fmt"
	"iter"
	"strings"
)

func Stream[T any](src []T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		ch := make(chan T)
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			defer close(ch)
			for _, v := range src {
				select {
				case ch <- v:
				case <-stop:
					return
				}
			}
		}()
		i := 0
		for v := range ch {
			if !yield(i, v) {
				return
			}
			i++
		}
	}
}

func main() {
	entries := []string{"INFO start", "WARN disk 91%", "ERROR write failed", "INFO retry", "INFO done"}
	for i, e := range Stream(entries) {
		if strings.HasPrefix(e, "ERROR") {
			fmt.Println("first error at line", i)
			break
		}
	}
}
