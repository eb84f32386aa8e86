// want: ok
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: rate limiting with a ticker and a bursty limiter of three tokens refilled from a ticker; the
//   refiller selects on done both while waiting for a tick and while handing over a token, and main closes done.

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
	done := make(chan struct{})
	defer close(done)
	go func() {
		ticker := time.NewTicker(2 * time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case t := <-ticker.C:
				select {
				case burstyLimiter <- t:
				case <-done:
					return
				}
			}
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
