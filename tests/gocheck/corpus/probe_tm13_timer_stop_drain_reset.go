// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the pre-Go 1.23 idiom: drain the channel without blocking if Stop returns false, Reset,
//   wait for the timer again

package main

import "time"

func main() {
	t := time.NewTimer(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	t.Reset(time.Millisecond)
	<-t.C
}
