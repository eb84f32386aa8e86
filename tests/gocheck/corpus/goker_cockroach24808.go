// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/cockroach/24808 (cockroachdb/cockroach PR 24808); rewritten as package main
// what: the compactor's channel has room for one signal and is already full when Start() sends
//   another one, before any worker reads it: main blocks for ever on the send

package main

import (
	"context"
	"sync"
)

type Compactor struct {
	ch chan struct{}
}

type Stopper struct {
	wg      sync.WaitGroup
	stopper chan struct{}
}

func (s *Stopper) RunWorker(ctx context.Context, f func(context.Context)) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f(ctx)
	}()
}

func (s *Stopper) ShouldStop() <-chan struct{} { return s.stopper }

func (s *Stopper) Stop() {
	close(s.stopper)
	s.wg.Wait()
}

func (c *Compactor) Start(ctx context.Context, stopper *Stopper) {
	c.ch <- struct{}{}
	stopper.RunWorker(ctx, func(ctx context.Context) {
		for {
			select {
			case <-stopper.ShouldStop():
				return
			case <-c.ch:
			}
		}
	})
}

func main() {
	stopper := &Stopper{stopper: make(chan struct{})}
	defer stopper.Stop()
	compactor := &Compactor{ch: make(chan struct{}, 1)}
	compactor.ch <- struct{}{}
	compactor.Start(context.Background(), stopper)
}
