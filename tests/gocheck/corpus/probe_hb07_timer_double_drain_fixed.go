// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb07: the timer is just stopped (Go >= 1.23 timers need no drain)

package main

import (
	"fmt"
	"sync"
	"time"
)

type heartbeat struct {
	done  chan struct{}
	beats int
}

func (h *heartbeat) run(wg *sync.WaitGroup) {
	defer wg.Done()
	t := time.NewTimer(time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		h.beats++
	case <-h.done:
	}
}

func main() {
	h := &heartbeat{done: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(1)
	go h.run(&wg)
	close(h.done)
	wg.Wait()
	fmt.Println("beats", h.beats)
}
