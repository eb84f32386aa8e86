// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (cockroach-style) a Stopper runs a worker that checks ShouldStop() with select-default
//   and then sends a result on an unbuffered channel; main takes one result and calls Stop(),
//   which closes quit and waits for the worker, but the worker is stuck on its next send

package main

import (
	"fmt"
	"sync"
)

type Stopper interface {
	RunWorker(f func())
	ShouldStop() <-chan struct{}
	Stop()
}

type stopper struct {
	quit chan struct{}
	wg   sync.WaitGroup
}

func (s *stopper) RunWorker(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

func (s *stopper) ShouldStop() <-chan struct{} { return s.quit }

func (s *stopper) Stop() {
	close(s.quit)
	s.wg.Wait()
}

func main() {
	var s Stopper = &stopper{quit: make(chan struct{})}
	results := make(chan int)
	s.RunWorker(func() {
		for {
			select {
			case <-s.ShouldStop():
				return
			default:
			}
			results <- 1 // BUG: not guarded by ShouldStop
		}
	})
	fmt.Println(<-results)
	s.Stop()
}
