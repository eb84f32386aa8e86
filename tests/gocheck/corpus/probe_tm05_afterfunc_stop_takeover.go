// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: time.AfterFunc cleanup; when Stop wins, the caller runs the cleanup itself: exactly once

package main

import (
	"fmt"
	"time"
)

func main() {
	done := make(chan struct{})
	cleanup := func() { close(done) }
	t := time.AfterFunc(time.Hour, cleanup)
	if t.Stop() {
		cleanup() // the timer will never run cleanup now
	}
	<-done
	fmt.Println("cleaned up once")
}
