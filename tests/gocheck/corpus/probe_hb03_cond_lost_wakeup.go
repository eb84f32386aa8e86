// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (kubernetes-style) a worker waits on a sync.Cond without checking the ready flag; if
//   main's markReady() (set flag + Broadcast) runs before the worker reaches Wait, the wakeup
//   is lost, the worker waits for ever and main blocks on done

package main

import (
	"fmt"
	"sync"
)

type readiness struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
}

func newReadiness() *readiness {
	r := &readiness{}
	r.cond = sync.NewCond(&r.mu)
	return r
}

func (r *readiness) waitReady() {
	r.mu.Lock()
	r.cond.Wait() // BUG: does not check r.ready first
	r.mu.Unlock()
}

func (r *readiness) markReady() {
	r.mu.Lock()
	r.ready = true
	r.cond.Broadcast()
	r.mu.Unlock()
}

func main() {
	r := newReadiness()
	done := make(chan struct{})
	go func() {
		r.waitReady()
		close(done)
	}()
	r.markReady()
	<-done
	fmt.Println("ready")
}
