// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a metrics flusher (ticker loop) whose Stop waits for the loop to exit
// what: the loop sends each flushed batch on an unbuffered exporter channel; main stops reading
//   exports and calls Stop, which closes quit and waits, but the loop is blocked in the send
//   (not in the select), so it never sees quit
package main

import (
	"fmt"
	"time"
)

type Flusher struct {
	exports chan int
	quit    chan struct{}
	exited  chan struct{}
}

func (f *Flusher) loop() {
	defer close(f.exited)
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	n := 0
	for {
		select {
		case <-t.C:
			n++
			f.exports <- n // BUG: blocks with no reader; should select on quit too
		case <-f.quit:
			return
		}
	}
}

func (f *Flusher) Stop() {
	close(f.quit)
	<-f.exited
}

func main() {
	f := &Flusher{exports: make(chan int), quit: make(chan struct{}), exited: make(chan struct{})}
	go f.loop()
	fmt.Println("exported", <-f.exports)
	time.Sleep(5 * time.Millisecond)
	f.Stop()
}
