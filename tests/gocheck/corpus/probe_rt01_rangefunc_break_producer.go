// want: partial-deadlock
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: a range-over-func sequence fed by a goroutine; the loop breaks early, the
//   sequence returns, and the producer goroutine stays blocked on its send

package main

import (
	"fmt"
	"iter"
)

func produce(n int) iter.Seq[int] {
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
	for v := range produce(5) {
		if v == 2 {
			break
		}
		fmt.Println(v)
	}
}
