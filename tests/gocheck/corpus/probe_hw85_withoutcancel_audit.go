// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of detaching an audit-log write from the request context (context.WithoutCancel)
// what: the handler detaches the audit writer with context.WithoutCancel so the write survives the
//   request, but the writer then waits for either a record or ctx.Done(); the detached context is
//   never done and no record comes after the request is cancelled, so the writer leaks
package main

import (
	"context"
	"fmt"
)

func startAudit(ctx context.Context, records <-chan string) {
	go func() {
		for {
			select {
			case r := <-records:
				fmt.Println("audit:", r)
			case <-ctx.Done(): // never: ctx is detached from cancellation
				return
			}
		}
	}()
}

func handle(ctx context.Context) {
	records := make(chan string)
	startAudit(context.WithoutCancel(ctx), records)
	records <- "GET /users"
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	handle(ctx)
	cancel()
}
