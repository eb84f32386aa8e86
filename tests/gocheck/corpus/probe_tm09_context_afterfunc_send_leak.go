// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: context.AfterFunc's function sends on a channel nobody reads once the context is
//   cancelled: it leaks

package main

import (
	"context"
	"time"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	results := make(chan string)
	context.AfterFunc(ctx, func() { results <- "cancelled" })
	cancel()
	time.Sleep(10 * time.Millisecond)
}
