// want: ok
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a hand-written errgroup where the first error cancels the rest, as x/sync/errgroup does it:
//   the first error is kept under a sync.Once that also cancels, and Wait just waits for every task.

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

type group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
	cancel  context.CancelFunc
}

func withContext(parent context.Context) (*group, context.Context) {
	ctx, cancel := context.WithCancel(parent)
	return &group{cancel: cancel}, ctx
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() {
				g.err = err
				g.cancel()
			})
		}
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	g.cancel()
	return g.err
}

func main() {
	root, cancel := context.WithCancel(context.Background())
	defer cancel()
	g, ctx := withContext(root)
	g.Go(func() error { return errors.New("fetch a: connection refused") })
	g.Go(func() error {
		sub, stop := context.WithCancel(ctx)
		defer stop()
		<-sub.Done()
		return sub.Err()
	})
	g.Go(func() error { return nil })
	fmt.Println("group:", g.Wait())
}
