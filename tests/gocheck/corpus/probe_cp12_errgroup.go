// want: global-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a hand-written errgroup where the first error cancels the rest; errors go to an unbuffered
//   channel of which Wait reads only one, so the second failing task blocks on its send and Wait's wg.Wait never returns.

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

type group struct {
	wg     sync.WaitGroup
	errc   chan error
	cancel context.CancelFunc
}

func withContext(parent context.Context) (*group, context.Context) {
	ctx, cancel := context.WithCancel(parent)
	return &group{errc: make(chan error), cancel: cancel}, ctx
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errc <- err // BUG: only the first error is ever received
		}
	}()
}

func (g *group) Wait() error {
	go func() {
		g.wg.Wait()
		close(g.errc)
	}()
	err := <-g.errc
	g.cancel()
	g.wg.Wait()
	return err
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
