// want: ok
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Two goroutines take a token from a one-item pool guarded by an embedded Mutex, retrying with TryLock,
//   runtime.Gosched and goto while it is locked or empty; the holder always puts the token back, so both finish.

package main

import (
	"fmt"
	"runtime"
	"sync"
)

type Pool struct {
	sync.Mutex
	free []int
}

func (p *Pool) get() int {
retry:
	if !p.TryLock() {
		runtime.Gosched()
		goto retry
	}
	if len(p.free) == 0 {
		p.Unlock()
		runtime.Gosched()
		goto retry
	}
	x := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	p.Unlock()
	return x
}

func (p *Pool) put(x int) {
	p.Lock()
	p.free = append(p.free, x)
	p.Unlock()
}

func main() {
	p := &Pool{free: []int{7}}
	done := make(chan int)
	for id := range 2 {
		go func() {
			tok := p.get()
			p.put(tok)
			done <- id
		}()
	}
	fmt.Println(<-done, <-done)
}
