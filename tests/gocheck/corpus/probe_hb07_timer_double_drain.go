// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (moby-style) a heartbeat goroutine selects on timer.C or done, then stops the timer
//   with the "if !t.Stop() { <-t.C }" idiom; if the timer fired and its value was already
//   received in the select, Stop returns false and the drain blocks for ever; main waits in
//   wg.Wait (interleaving-dependent)

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
	select {
	case <-t.C:
		h.beats++
	case <-h.done:
	}
	if !t.Stop() {
		<-t.C // BUG: the value may already have been consumed above
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
