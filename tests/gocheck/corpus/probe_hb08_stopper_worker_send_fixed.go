// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb08: the worker's send selects on ShouldStop() as well

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
			case results <- 1:
			case <-s.ShouldStop():
				return
			}
		}
	})
	fmt.Println(<-results)
	s.Stop()
}
