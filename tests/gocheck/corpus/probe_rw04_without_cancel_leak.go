// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in the manner of real code bases (2026-12-01, third round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: audit logger detached with context.WithoutCancel, so cancelling the request context
//   never stops it

package main

import (
	"context"
	"fmt"
)

func startAudit(ctx context.Context, events <-chan string) {
	bg := context.WithoutCancel(ctx) // BUG: detached from cancellation
	go func() {
		for {
			select {
			case e := <-events:
				_ = e
			case <-bg.Done():
				return
			}
		}
	}()
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	events := make(chan string)
	startAudit(ctx, events)
	events <- "login"
	events <- "read /secrets"
	cancel()
	fmt.Println("request done")
}
