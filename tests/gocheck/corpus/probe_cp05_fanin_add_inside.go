// want: channel-safety
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fan-in merge with a WaitGroup closer, but each forwarder calls wg.Add(1) inside its own
//   goroutine; the closer's Wait can return at zero first and close out while a forwarder still sends on it.

package main

import (
	"fmt"
	"sync"
)

func gen(nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		for _, n := range nums {
			out <- n
		}
		close(out)
	}()
	return out
}

func merge(cs ...<-chan int) <-chan int {
	var wg sync.WaitGroup
	out := make(chan int)
	output := func(c <-chan int) {
		wg.Add(1) // BUG: Add belongs before the go statement
		defer wg.Done()
		for n := range c {
			out <- n
		}
	}
	for _, c := range cs {
		go output(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func main() {
	sum := 0
	for n := range merge(gen(1, 2), gen(3, 4)) {
		sum += n
	}
	fmt.Println("sum", sum)
}
