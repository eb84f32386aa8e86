// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a pool sized with the min builtin whose collector stops early on a sentinel
// what: min(len(jobs), 3) workers send results on an unbuffered channel; main stops reading at
//   the first negative result and returns, so the workers still sending are left blocked
package main

import (
	"fmt"
	"sync"
)

func main() {
	jobs := []int{4, -1, 9}
	n := min(len(jobs), 3)
	in := make(chan int, len(jobs))
	for _, j := range jobs {
		in <- j
	}
	close(in)
	out := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range in {
				out <- j
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	for v := range out {
		if v < 0 {
			fmt.Println("bad job", v)
			return // BUG: abandons the remaining results
		}
	}
}
