// want: ok
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the Notifier's Close claims the atomic.Bool with CompareAndSwap, so exactly one of the
//   error path and the shutdown path closes done, whichever comes first.

package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type Notifier struct {
	closed atomic.Bool
	done   chan struct{}
}

func NewNotifier() *Notifier { return &Notifier{done: make(chan struct{})} }

func (n *Notifier) Close() {
	if !n.closed.CompareAndSwap(false, true) {
		return
	}
	close(n.done)
}

func (n *Notifier) Done() <-chan struct{} { return n.done }

func main() {
	n := NewNotifier()
	var wg sync.WaitGroup
	var failures atomic.Int64
	for i := range 3 {
		wg.Go(func() {
			if i == 1 {
				failures.Add(1)
				n.Close() // error path: stop everybody
			}
		})
	}
	wg.Go(n.Close) // shutdown path
	wg.Wait()
	<-n.Done()
	fmt.Println("stopped, failures:", failures.Load())
}
