// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ex08: wg.Add(1) is called before each forwarder goroutine starts

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
		wg.Add(1)
		go func(c <-chan int) {
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
