// want: global-deadlock
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: three shard workers share a context.WithCancelCause; the failing one cancels with a cause
//   and returns without sending, but main still receives exactly three results and never looks at
//   ctx.Done(), so it waits for ever.

package main

import (
	"context"
	"errors"
	"fmt"
)

var errQuota = errors.New("quota exceeded")

func work(ctx context.Context, id int, results chan<- string, cancel context.CancelCauseFunc) {
	if id == 2 {
		cancel(fmt.Errorf("shard %d: %w", id, errQuota))
		return
	}
	select {
	case results <- fmt.Sprintf("shard-%d ok", id):
	case <-ctx.Done():
	}
}

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	results := make(chan string)
	for id := range 3 {
		go work(ctx, id, results, cancel)
	}
	var got []string
	for range 3 {
		got = append(got, <-results)
	}
	fmt.Println(got, context.Cause(ctx))
}
