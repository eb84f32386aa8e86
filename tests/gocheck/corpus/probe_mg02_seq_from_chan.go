// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Stream turns a slice read by a background goroutine into an iter.Seq2; the caller's
//   range loop breaks at the first ERROR, yield returns false and the iterator returns, leaving
//   the reader goroutine blocked on its unbuffered send.

package main

import (
	"fmt"
	"iter"
	"strings"
)

func Stream[T any](src []T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		ch := make(chan T)
		go func() {
			defer close(ch)
			for _, v := range src {
				ch <- v
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
