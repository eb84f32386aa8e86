// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of detaching an audit-log write from the request context (context.WithoutCancel)
// what: the writer still gets a detached context for its write, but it ends when the handler
//   closes the records channel, which it does (deferred) before returning; main waits for it
package main

import (
	"context"
	"fmt"
)

func startAudit(ctx context.Context, records <-chan string) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range records {
			if ctx.Err() == nil {
				fmt.Println("audit:", r)
			}
		}
	}()
	return done
}

func handle(ctx context.Context) <-chan struct{} {
	records := make(chan string)
	defer close(records)
	done := startAudit(context.WithoutCancel(ctx), records)
	records <- "GET /users"
	return done
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	done := handle(ctx)
	cancel()
	<-done
}
