// want: channel-safety
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (grpc-style) a tracker counts outstanding streams with an atomic.Int32; each stream
//   decrements it and then reloads it to decide whether it was the last one, so two streams
//   can both see zero and both close the done channel (close of closed channel)

package main

import (
	"fmt"
	"sync/atomic"
)

type tracker struct {
	pending atomic.Int32
	done    chan struct{}
}

func newTracker(n int32) *tracker {
	t := &tracker{done: make(chan struct{})}
	t.pending.Store(n)
	return t
}

func (t *tracker) finish() {
	t.pending.Add(-1)
	if t.pending.Load() == 0 { // BUG: check separated from the decrement
		close(t.done)
	}
}

func main() {
	t := newTracker(3)
	for i := 0; i < 3; i++ {
		go t.finish()
	}
	<-t.done
	fmt.Println("all streams finished")
}
