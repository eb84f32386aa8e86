// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ey01: the stats send selects on stop too

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
			select {
			case f.stats <- 1:
			case <-f.stop:
				return
			}
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
