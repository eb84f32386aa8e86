// want: global-deadlock
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: context.AfterFunc's stop runs before the cancel, so the function never runs and main waits
//   for it for ever

package main

import "context"

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() { close(done) })
	stop()
	cancel()
	<-done
}
