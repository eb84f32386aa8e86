// want: global-deadlock
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: (errgroup pipeline, as in MD5All-style digesters) a first-error-cancels group runs a
//   producer that feeds paths on an unbuffered channel and a digester; the digester fails on the
//   second path and returns, cancelling the context, but the producer's send does not watch
//   ctx.Done(), so it blocks for ever, the group's Wait never returns and main blocks ranging sums

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

func withContext(ctx context.Context) (*group, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
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

func digestAll(files []string) (int, error) {
	g, ctx := withContext(context.Background())
	paths := make(chan string)
	g.Go(func() error {
		defer close(paths)
		for _, p := range files {
			paths <- p // BUG: does not watch ctx.Done()
		}
		return nil
	})
	sums := make(chan string)
	g.Go(func() error {
		for p := range paths {
			if p == "broken" {
				return errors.New("read " + p + ": i/o error")
			}
			select {
			case sums <- "sum(" + p + ")":
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	go func() {
		g.Wait()
		close(sums)
	}()
	n := 0
	for range sums {
		n++
	}
	return n, g.Wait()
}

func main() {
	n, err := digestAll([]string{"a", "broken", "c"})
	fmt.Println(n, err)
}
