// want: ok
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a stateful goroutine owns a map and serves read and write requests that carry reply channels;
//   two writers and two readers wait for every reply, and main stops the owner through quit after wg.Wait.

package main

import (
	"fmt"
	"sync"
)

type readOp struct {
	key  int
	resp chan int
}

type writeOp struct {
	key, val int
	resp     chan bool
}

func owner(reads <-chan readOp, writes <-chan writeOp, quit <-chan struct{}) {
	state := make(map[int]int)
	for {
		select {
		case r := <-reads:
			r.resp <- state[r.key]
		case w := <-writes:
			state[w.key] = w.val
			w.resp <- true
		case <-quit:
			return
		}
	}
}

func main() {
	reads := make(chan readOp)
	writes := make(chan writeOp)
	quit := make(chan struct{})
	go owner(reads, writes, quit)

	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := 0
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			op := writeOp{key: w, val: 10 * (w + 1), resp: make(chan bool)}
			writes <- op
			<-op.resp
		}()
	}
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			op := readOp{key: r, resp: make(chan int)}
			reads <- op
			v := <-op.resp
			mu.Lock()
			seen += v
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(quit)
	fmt.Println("sum of reads", seen)
}
