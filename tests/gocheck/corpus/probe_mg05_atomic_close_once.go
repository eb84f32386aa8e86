// want: channel-safety
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a Notifier guards close(done) with an atomic.Bool, but Close loads and stores it in two
//   steps; the error path and the shutdown path can both see false and both close the channel.

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
	if n.closed.Load() {
		return
	}
	n.closed.Store(true)
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
