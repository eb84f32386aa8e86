// want: ok
// source: written for chanfuzz as a probe (round 13, iter.Pull; run and confirmed, see docs/gocheck-report.md)
// what: iter.Pull over a counting sequence, drained with next and stopped by a defer

package main

import (
	"fmt"
	"iter"
)

func numbers(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	next, stop := iter.Pull(numbers(5))
	defer stop()
	sum := 0
	for {
		v, ok := next()
		if !ok {
			break
		}
		sum += v
	}
	fmt.Println(sum)
}
