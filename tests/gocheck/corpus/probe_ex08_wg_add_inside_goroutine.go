// want: channel-safety
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (prometheus-style) fan-in of a slice of source channels built with append: each
//   forwarder calls wg.Add(1) inside its own goroutine, so the closer goroutine's wg.Wait can
//   return before any Add and close(out) while forwarders still send: send on closed channel
//   (interleaving-dependent)

package main

import (
	"fmt"
	"sync"
)

func source(v int) <-chan int {
	c := make(chan int, 1)
	c <- v
	close(c)
	return c
}

func fanIn(srcs []<-chan int) <-chan int {
	out := make(chan int, len(srcs))
	var wg sync.WaitGroup
	for _, c := range srcs {
		go func(c <-chan int) {
			wg.Add(1) // BUG: Add must happen before the goroutine starts
			defer wg.Done()
			for v := range c {
				out <- v
			}
		}(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func main() {
	var srcs []<-chan int
	for i := 0; i < 2; i++ {
		srcs = append(srcs, source(i))
	}
	sum := 0
	for v := range fanIn(srcs) {
		sum += v
	}
	fmt.Println("sum", sum)
}
