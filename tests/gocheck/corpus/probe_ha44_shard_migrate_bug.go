// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a hand-rolled errgroup ("first error cancels the rest") in a schema migration tool
// what: each shard migration sends its result on an unbuffered error channel and migrateAll returns
//   at the first error; two shards always fail validation, so at least one sender is left blocked for ever.
package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

type Shard struct {
	Name    string
	Version int
	Tables  []string
}

var ErrDirty = errors.New("shard has a dirty migration")

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

// migrateAll runs every shard concurrently and reports the first failure.
func migrateAll(ctx context.Context, shards []Shard, target int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error)
	for _, s := range shards {
		go func(s Shard) {
			errc <- migrateShard(ctx, s, target)
		}(s)
	}
	for range shards {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
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
