// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a hand-rolled errgroup ("first error cancels the rest") in a schema migration tool
// what: a small errgroup records the first error under a sync.Once, cancels the shared context and
//   waits for every shard goroutine before returning, so no goroutine is left sending.
package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

type Shard struct {
	Name    string
	Version int
	Tables  []string
}

var ErrDirty = errors.New("shard has a dirty migration")

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

func migrateShard(ctx context.Context, s Shard, target int) error {
	if s.Version < 0 {
		return fmt.Errorf("%s: %w", s.Name, ErrDirty)
	}
	for v := s.Version + 1; v <= target; v++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		for _, t := range s.Tables {
			_ = fmt.Sprintf("ALTER TABLE %s.%s /* v%d */", s.Name, t, v)
		}
	}
	return nil
}

func migrateAll(ctx context.Context, shards []Shard, target int) error {
	g, ctx := withContext(ctx)
	for _, s := range shards {
		g.Go(func() error { return migrateShard(ctx, s, target) })
	}
	return g.Wait()
}

func main() {
	shards := []Shard{
		{Name: "users_0", Version: 3, Tables: []string{"accounts", "sessions"}},
		{Name: "users_1", Version: -1, Tables: []string{"accounts", "sessions"}},
		{Name: "orders_0", Version: 2, Tables: []string{"orders"}},
		{Name: "orders_1", Version: -1, Tables: []string{"orders"}},
	}
	err := migrateAll(context.Background(), shards, 5)
	switch {
	case errors.Is(err, ErrDirty):
		fmt.Println("migration aborted:", err)
	case err != nil:
		fmt.Println("migration failed:", err)
	default:
		fmt.Println("migrated", len(shards), "shards:", strings.Repeat("#", len(shards)))
	}
}
