// want: partial-deadlock
// source: written for chanfuzz as a probe (round 13, iter.Pull; run and confirmed, see docs/gocheck-report.md)
// what: stop makes yield return false and the sequence returns, but nothing tells the
//   prefetching goroutine: it stays blocked sending the next page

package main

import (
	"fmt"
	"iter"
)

type client struct{ pages int }

func (c *client) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		pages := make(chan int)
		go func() {
			defer close(pages)
			for p := 1; p <= c.pages; p++ {
				pages <- p * 10
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
