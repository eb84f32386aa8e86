// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb15: the value returned by Add decides who is last, so exactly one
//   stream closes done

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
	if t.pending.Add(-1) == 0 {
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
