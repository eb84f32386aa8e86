// want: ok
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fetch with a one-slot result channel: when the timeout wins, the lookup goroutine still
//   completes its send into the buffer and exits, so nothing is left blocked.

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
	ch := make(chan Result, 1)
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
