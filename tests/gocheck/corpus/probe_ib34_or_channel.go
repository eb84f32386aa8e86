// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Concurrency in Go (Cox-Buday) ch. 4, the or-channel (recursive composition of done channels)
// what: or combines five sig channels (closed after 1 to 9 ms) recursively, each level's goroutine
//   also selecting on its own orDone so the inner goroutines stop once any signal fires; main
//   waits on the combined channel, then waits for the sig goroutines with a WaitGroup.

package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	var or func(channels ...<-chan interface{}) <-chan interface{}
	or = func(channels ...<-chan interface{}) <-chan interface{} {
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

	var sigs sync.WaitGroup
	sig := func(after time.Duration) <-chan interface{} {
		c := make(chan interface{})
		sigs.Add(1)
		go func() {
			defer sigs.Done()
			defer close(c)
			time.Sleep(after)
		}()
		return c
	}

	start := time.Now()
	<-or(
		sig(9*time.Millisecond),
		sig(7*time.Millisecond),
		sig(1*time.Millisecond),
		sig(5*time.Millisecond),
		sig(3*time.Millisecond),
	)
	fmt.Printf("done after %v\n", time.Since(start) >= time.Millisecond)
	sigs.Wait()
}
