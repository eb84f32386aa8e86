// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a watchdog goroutine waits on a timer's channel; the work finishes and stops the timer,
//   so the watchdog waits for ever

package main

import (
	"fmt"
	"time"
)

func withWatchdog(name string, work func()) {
	t := time.NewTimer(time.Second)
	go func() {
		<-t.C // BUG: Stop never sends on or closes t.C
		fmt.Println("watchdog: " + name + " is slow")
	}()
	work()
	t.Stop()
}

func main() {
	sum := 0
	withWatchdog("sum", func() {
		for i := 0; i < 10; i++ {
			sum += i
		}
	})
	fmt.Println("sum", sum)
}
