// want: ok
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the recursive or-channel over five signal channels, as in "Concurrency in Go": the tail's
//   recursive call also waits on the parent's orDone, so every or-goroutine ends once signal 1 fires.

package main

import (
	"fmt"
	"time"
)

// or returns a channel that is closed once any of the given channels is closed.
func or(channels ...<-chan struct{}) <-chan struct{} {
	switch len(channels) {
	case 0:
		return nil
	case 1:
		return channels[0]
	}
	orDone := make(chan struct{})
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

func after(d time.Duration) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		defer close(c)
		time.Sleep(d)
	}()
	return c
}

func main() {
	never := func() <-chan struct{} { return make(chan struct{}) }
	start := time.Now()
	<-or(
		never(),
		after(10*time.Millisecond),
		never(),
		never(),
		never(),
	)
	fmt.Printf("done after %v\n", time.Since(start).Round(time.Millisecond))
}
