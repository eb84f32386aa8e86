// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a reporter ranges over a ticker's channel; Stop does not close it, so the reporter leaks

package main

import (
	"fmt"
	"sync/atomic"
	"time"
)

func main() {
	var processed atomic.Int64
	ticker := time.NewTicker(5 * time.Millisecond)
	go func() {
		for range ticker.C {
			_ = processed.Load()
		}
		fmt.Println("reporter exits") // never reached
	}()
	for i := 0; i < 3; i++ {
		processed.Add(1)
		time.Sleep(10 * time.Millisecond)
	}
	ticker.Stop()
	time.Sleep(20 * time.Millisecond)
	fmt.Println("processed", processed.Load())
}
