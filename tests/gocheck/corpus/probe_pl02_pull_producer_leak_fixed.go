// want: ok
// source: written for chanfuzz as a probe (round 13, iter.Pull; run and confirmed, see docs/gocheck-report.md)
// what: the fix: the sequence closes quit when it returns, and the prefetcher selects on it

package main

import (
	"fmt"
	"iter"
)

type client struct{ pages int }

func (c *client) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		pages := make(chan int)
		quit := make(chan struct{})
		defer close(quit)
		go func() {
			defer close(pages)
			for p := 1; p <= c.pages; p++ {
				select {
				case pages <- p * 10:
				case <-quit:
					return
				}
			}
		}()
		for p := range pages {
			if !yield(p) {
				return
			}
		}
	}
}

func main() {
	c := &client{pages: 4}
	next, stop := iter.Pull(c.All())
	defer stop()
	first, _ := next()
	second, _ := next()
	fmt.Println(first + second)
}
