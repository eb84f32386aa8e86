// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a file-watcher debouncer (time.Timer Reset on each event)
// what: each event re-arms a timer with Stop/Reset (Go 1.23 semantics, no drain); when the timer
//   fires the pending batch is emitted; closing the events channel flushes and closes out
package main

import (
	"fmt"
	"time"
)

func debounce(events <-chan string, d time.Duration) <-chan []string {
	out := make(chan []string)
	go func() {
		defer close(out)
		t := time.NewTimer(d)
		t.Stop()
		var pending []string
		for {
			select {
			case e, ok := <-events:
				if !ok {
					t.Stop()
					if len(pending) > 0 {
						out <- pending
					}
					return
				}
				pending = append(pending, e)
				t.Reset(d)
			case <-t.C:
				out <- pending
				pending = nil
			}
		}
	}()
	return out
}

func main() {
	events := make(chan string)
	out := debounce(events, 2*time.Millisecond)
	go func() {
		for _, e := range []string{"write a", "write a", "chmod b"} {
			events <- e
		}
		close(events)
	}()
	n := 0
	for batch := range out {
		n += len(batch)
	}
	fmt.Println("events", n)
}
