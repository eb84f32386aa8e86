// want: global-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a worker with a heartbeat on a ticker; it sends each pulse with a blocking send instead of a
//   select with default, and the caller only reads results, so a pulse between results blocks worker and main.

package main

import (
	"fmt"
	"time"
)

func doWork(done <-chan struct{}, pulseInterval time.Duration, nums ...int) (<-chan struct{}, <-chan int) {
	heartbeat := make(chan struct{})
	results := make(chan int)
	go func() {
		defer close(heartbeat)
		defer close(results)
		pulse := time.NewTicker(pulseInterval)
		defer pulse.Stop()
		for _, n := range nums {
		send:
			for {
				select {
				case <-done:
					return
				case <-pulse.C:
					heartbeat <- struct{}{} // BUG: must not block when nobody listens
				case results <- n * n:
					break send
				}
			}
		}
	}()
	return heartbeat, results
}

func main() {
	done := make(chan struct{})
	defer close(done)
	_, results := doWork(done, time.Millisecond, 1, 2, 3)
	for r := range results {
		fmt.Println("result", r)
		time.Sleep(2 * time.Millisecond) // slow consumer
	}
}
