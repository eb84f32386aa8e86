// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (hashicorp-style) a pool keeps a slice of workers, each with its own unbuffered quit
//   channel; a worker whose job fails returns early, and Pool.Stop() sends a quit token to
//   every worker in turn, blocking for ever on the one that already exited

package main

import (
	"errors"
	"fmt"
	"sync"
)

type worker struct {
	id   int
	jobs chan int
	quit chan struct{}
}

func (w *worker) loop(wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case j := <-w.jobs:
			if err := handle(w.id, j); err != nil {
				fmt.Println("worker", w.id, "exiting:", err)
				return
			}
		case <-w.quit:
			return
		}
	}
}

func handle(id, j int) error {
	if j < 0 {
		return errors.New("bad job")
	}
	return nil
}

type pool struct {
	workers []*worker
	wg      sync.WaitGroup
}

func (p *pool) Start(n int) {
	for i := 0; i < n; i++ {
		w := &worker{id: i, jobs: make(chan int), quit: make(chan struct{})}
		p.workers = append(p.workers, w)
		p.wg.Add(1)
		go w.loop(&p.wg)
	}
}

func (p *pool) Stop() {
	for _, w := range p.workers {
		w.quit <- struct{}{} // BUG: blocks if w already returned
	}
	p.wg.Wait()
}

func main() {
	p := &pool{}
	p.Start(2)
	p.workers[0].jobs <- 1
	p.workers[1].jobs <- -1
	p.Stop()
}
