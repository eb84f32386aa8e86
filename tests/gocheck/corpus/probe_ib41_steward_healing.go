// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Concurrency in Go (Cox-Buday) ch. 5, healing unhealthy goroutines (newSteward restarting an irresponsible ward, with the or-channel)
// what: the steward starts a ward that never sends a heartbeat; after each 3 ms timeout the steward
//   closes that ward's wardDone and starts a new one, while pulsing its own heartbeat without
//   blocking. time.AfterFunc closes done after 10 ms; the steward closes its heartbeat, main's
//   range ends, and every ward goroutine (waiting on or(wardDone, done)) halts.

package main

import (
	"fmt"
	"sync"
	"time"
)

type startGoroutineFn func(done <-chan interface{}, pulseInterval time.Duration) (heartbeat <-chan interface{})

func or(channels ...<-chan interface{}) <-chan interface{} {
	switch len(channels) {
	case 0:
		return nil
	case 1:
		return channels[0]
	}
	orDone := make(chan interface{})
	go func() {
		defer close(orDone)
		switch len(channels) {
		case 2:
			select {
			case <-channels[0]:
			case <-channels[1]:
			}
		default:
			select {
			case <-channels[0]:
			case <-channels[1]:
			case <-channels[2]:
			case <-or(append(channels[3:], orDone)...):
			}
		}
	}()
	return orDone
}

func newSteward(timeout time.Duration, startGoroutine startGoroutineFn) startGoroutineFn {
	return func(done <-chan interface{}, pulseInterval time.Duration) <-chan interface{} {
		heartbeat := make(chan interface{})
		go func() {
			defer close(heartbeat)

			var wardDone chan interface{}
			var wardHeartbeat <-chan interface{}
			startWard := func() {
				wardDone = make(chan interface{})
				wardHeartbeat = startGoroutine(or(wardDone, done), timeout/2)
			}
			startWard()
			pulse := time.NewTicker(pulseInterval)
			defer pulse.Stop()

		monitorLoop:
			for {
				timeoutSignal := time.After(timeout)

				for {
					select {
					case <-pulse.C:
						select {
						case heartbeat <- struct{}{}:
						default:
						}
					case <-wardHeartbeat:
						continue monitorLoop
					case <-timeoutSignal:
						fmt.Println("steward: ward unhealthy; restarting")
						close(wardDone)
						startWard()
						continue monitorLoop
					case <-done:
						return
					}
				}
			}
		}()
		return heartbeat
	}
}

func main() {
	var wards sync.WaitGroup
	doWork := func(done <-chan interface{}, _ time.Duration) <-chan interface{} {
		fmt.Println("ward: Hello, I'm irresponsible!")
		wards.Add(1)
		go func() {
			defer wards.Done()
			<-done // We never send a heartbeat
			fmt.Println("ward: I am halting.")
		}()
		return nil
	}
	doWorkWithSteward := newSteward(3*time.Millisecond, doWork)

	done := make(chan interface{})
	time.AfterFunc(10*time.Millisecond, func() {
		fmt.Println("main: halting steward and ward.")
		close(done)
	})

	for range doWorkWithSteward(done, 3*time.Millisecond) {
	}
	wards.Wait()
	fmt.Println("Done")
}
