// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Rate Limiting" (a ticker limiter and a bursty limiter refilled by a goroutine)
// what: the refill goroutine owns a stoppable ticker and selects between refilling the bursty
//   limiter and a done channel (the refill send itself is in a select with done too); main
//   closes done after the bursty requests and waits for the refill goroutine to stop its ticker.

package main

import (
	"fmt"
	"time"
)

func main() {
	requests := make(chan int, 5)
	for i := 1; i <= 5; i++ {
		requests <- i
	}
	close(requests)

	limiter := time.NewTicker(time.Millisecond)
	for req := range requests {
		<-limiter.C
		fmt.Println("request", req)
	}
	limiter.Stop()

	burstyLimiter := make(chan time.Time, 3)
	for i := 0; i < 3; i++ {
		burstyLimiter <- time.Now()
	}

	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		ticker := time.NewTicker(time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case t := <-ticker.C:
				select {
				case burstyLimiter <- t:
				case <-done:
					return
				}
			case <-done:
				return
			}
		}
	}()

	burstyRequests := make(chan int, 5)
	for i := 1; i <= 5; i++ {
		burstyRequests <- i
	}
	close(burstyRequests)
	for req := range burstyRequests {
		<-burstyLimiter
		fmt.Println("request", req)
	}
	close(done)
	<-stopped
}
