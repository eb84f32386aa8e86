// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (prometheus-style) a flusher goroutine loops on a time.Ticker and, on each tick, sends
//   its batch size on an unbuffered stats channel without watching stop; main reads one stat,
//   closes stop and returns, so the flusher can stay blocked on its next stats send (a leak)

package main

import (
	"fmt"
	"time"
)

type flusher struct {
	stats chan int
	stop  chan struct{}
}

func (f *flusher) run() {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			f.stats <- 1 // BUG: not guarded by stop
		case <-f.stop:
			return
		}
	}
}

func main() {
	f := &flusher{stats: make(chan int), stop: make(chan struct{})}
	go f.run()
	fmt.Println("flushed", <-f.stats)
	close(f.stop)
}
