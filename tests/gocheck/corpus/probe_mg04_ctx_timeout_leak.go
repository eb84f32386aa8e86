// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fetch runs a slow lookup in a goroutine and selects on its unbuffered result channel and
//   ctx.Done(); when the timeout wins, the lookup goroutine's send has no receiver and it leaks.

package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

var errSlowBackend = errors.New("backend too slow")

type Result struct {
	Key string
	Val int
}

func lookup(key string) Result {
	time.Sleep(20 * time.Millisecond) // stands in for a slow backend
	return Result{Key: key, Val: len(key)}
}

func fetch(ctx context.Context, key string) (Result, error) {
	ch := make(chan Result)
	go func() { ch <- lookup(key) }()
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return Result{}, context.Cause(ctx)
	}
}

func main() {
	ctx, cancel := context.WithTimeoutCause(context.Background(), 10*time.Millisecond, errSlowBackend)
	defer cancel()
	r, err := fetch(ctx, "user:1")
	fmt.Println(r, err, errors.Is(err, errSlowBackend))
}
