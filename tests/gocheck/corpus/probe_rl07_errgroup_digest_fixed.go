// want: ok
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of probe_rl07_errgroup_digest: the digesters send each result in a select
//   with a ctx.Done case, so once a task fails and the collector has returned they return too,
//   the group's WaitGroup reaches zero and sumAll reports the first error

package main

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"sync"
)

// Group runs tasks and cancels their context on the first error, like errgroup.Group.
type Group struct {
	cancel  context.CancelCauseFunc
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

// WithContext returns a Group and a context that is cancelled when a task fails.
func WithContext(ctx context.Context) (*Group, context.Context) {
	ctx, cancel := context.WithCancelCause(ctx)
	return &Group{cancel: cancel}, ctx
}

// Go runs f in a new goroutine.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() {
				g.err = err
				g.cancel(err)
			})
		}
	}()
}

// Wait waits for every task and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	g.cancel(g.err)
	return g.err
}

type result struct {
	path string
	sum  uint32
}

// digest stands in for reading and hashing a file.
func digest(path string) (uint32, error) {
	if path == "data/03.bin" {
		return 0, errors.New(path + ": corrupt file")
	}
	return crc32.ChecksumIEEE([]byte(path)), nil
}

func sumAll(paths []string) (map[string]uint32, error) {
	g, ctx := WithContext(context.Background())
	pathc := make(chan string)
	g.Go(func() error {
		defer close(pathc)
		for _, p := range paths {
			select {
			case pathc <- p:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	sums := make(chan result)
	for range 2 {
		g.Go(func() error {
			for p := range pathc {
				s, err := digest(p)
				if err != nil {
					return err
				}
				select {
				case sums <- result{p, s}:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return nil
		})
	}
	m := make(map[string]uint32)
	g.Go(func() error {
		for range paths {
			select {
			case r := <-sums:
				m[r.path] = r.sum
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	return m, g.Wait()
}

func main() {
	var paths []string
	for i := 1; i <= 8; i++ {
		paths = append(paths, fmt.Sprintf("data/%02d.bin", i))
	}
	if m, err := sumAll(paths); err != nil {
		fmt.Println("checksum failed:", err)
	} else {
		fmt.Println(len(m), "files checksummed")
	}
}
