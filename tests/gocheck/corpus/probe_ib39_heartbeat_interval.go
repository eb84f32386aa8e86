// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Concurrency in Go (Cox-Buday) ch. 5, heartbeats (a pulse on an interval, sent with a non-blocking select)
// what: doWork pulses on its heartbeat channel every pulseInterval with a select/default, and
//   produces a result every two intervals; time.AfterFunc closes done after 12 ms, after which
//   doWork closes both channels and main's select loop (with a per-iteration timeout) returns.

package main

import (
	"fmt"
	"time"
)

func main() {
	doWork := func(done <-chan interface{}, pulseInterval time.Duration) (<-chan interface{}, <-chan time.Time) {
		heartbeat := make(chan interface{})
		results := make(chan time.Time)
		go func() {
			defer close(heartbeat)
			defer close(results)

			pulse := time.NewTicker(pulseInterval)
			defer pulse.Stop()
			workGen := time.NewTicker(2 * pulseInterval)
			defer workGen.Stop()

			sendPulse := func() {
				select {
				case heartbeat <- struct{}{}:
				default:
				}
			}
			sendResult := func(r time.Time) {
				for {
					select {
					case <-done:
						return
					case <-pulse.C:
						sendPulse()
					case results <- r:
						return
					}
				}
			}

			for {
				select {
				case <-done:
					return
				case <-pulse.C:
					sendPulse()
				case r := <-workGen.C:
					sendResult(r)
				}
			}
		}()
		return heartbeat, results
	}

	done := make(chan interface{})
	time.AfterFunc(12*time.Millisecond, func() { close(done) })

	const timeout = 200 * time.Millisecond
	heartbeat, results := doWork(done, time.Millisecond)
	pulses, got := 0, 0
	for {
		select {
		case _, ok := <-heartbeat:
			if ok == false {
				fmt.Println("pulses:", pulses > 0, "results:", got > 0)
				return
			}
			pulses++
		case _, ok := <-results:
			if ok == false {
				fmt.Println("pulses:", pulses > 0, "results:", got > 0)
				return
			}
			got++
		case <-time.After(timeout):
			fmt.Println("worker goroutine is not healthy!")
			<-done
			return
		}
	}
}
