// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Rate Limiting" (a ticker limiter and a bursty limiter refilled by a goroutine)
// what: as in the original, a goroutine refills the burstyLimiter (capacity 3) from a ticker for
//   ever; once main has served its five bursty requests and returned, nobody drains the limiter,
//   so after three more ticks the refill goroutine blocks for ever on `burstyLimiter <- t`.

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

	limiter := time.Tick(time.Millisecond)

	for req := range requests {
		<-limiter
		fmt.Println("request", req)
	}

	burstyLimiter := make(chan time.Time, 3)

	for i := 0; i < 3; i++ {
		burstyLimiter <- time.Now()
	}

	go func() {
		for t := range time.Tick(time.Millisecond) {
			burstyLimiter <- t
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
}
