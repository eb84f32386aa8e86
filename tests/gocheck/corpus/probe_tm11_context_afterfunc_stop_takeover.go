// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: whoever wins between context.AfterFunc's stop and the cancel closes done, exactly once

package main

import "context"

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() { close(done) })
	if stop() {
		close(done)
	}
	cancel()
	<-done
}
