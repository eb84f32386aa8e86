// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: rate limiting with a ticker and a bursty limiter of three tokens refilled from a ticker; the
//   refilling goroutine has no way to stop, so after main is done it fills the buffer and blocks on it for ever.

package main

import (
	"fmt"
	"time"
)

func main() {
	requests := make(chan int, 3)
	for i := 1; i <= 3; i++ {
		requests <- i
	}
	close(requests)
	limiter := time.Tick(2 * time.Millisecond)
	for req := range requests {
		<-limiter
		fmt.Println("request", req)
	}

	burstyLimiter := make(chan time.Time, 3)
	for i := 0; i < 3; i++ {
		burstyLimiter <- time.Now()
	}
	go func() {
		for t := range time.Tick(2 * time.Millisecond) {
			burstyLimiter <- t // BUG: blocks for ever once nobody takes tokens
		}
	}()

	burstyRequests := make(chan int, 4)
	for i := 1; i <= 4; i++ {
		burstyRequests <- i
	}
	close(burstyRequests)
	for req := range burstyRequests {
		<-burstyLimiter
		fmt.Println("bursty request", req)
	}
}
