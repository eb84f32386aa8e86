// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: when Stop returns true the timer never fires: the branch that would close a nil channel
//   on its value cannot run

package main

import "time"

func main() {
	t := time.NewTimer(time.Hour)
	if t.Stop() {
		select {
		case <-t.C:
			var ch chan int
			close(ch)
		case <-time.After(time.Millisecond):
		}
	}
}
