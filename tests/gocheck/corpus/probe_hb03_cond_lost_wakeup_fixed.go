// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb03: the worker waits in a loop guarded by the ready flag

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
	for !r.ready {
		r.cond.Wait()
	}
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
