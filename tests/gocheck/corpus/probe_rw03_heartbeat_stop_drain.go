// want: global-deadlock
// source: written for chanfuzz as a held-out probe in the manner of real code bases (2026-12-01, third round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: heartbeat monitor: after the timer fired (value consumed by the select), a heartbeat
//   does `if !t.Stop() { <-t.C }`, which blocks for ever

package main

import (
	"fmt"
	"time"
)

type Monitor struct {
	hb      chan struct{}
	quit    chan struct{}
	done    chan struct{}
	expired int
}

func (m *Monitor) run(ttl time.Duration) {
	defer close(m.done)
	t := time.NewTimer(ttl)
	for {
		select {
		case <-m.hb:
			if !t.Stop() {
				<-t.C // BUG: the value was already received by the other case
			}
			t.Reset(ttl)
		case <-t.C:
			m.expired++
		case <-m.quit:
			t.Stop()
			return
		}
	}
}

func main() {
	m := &Monitor{hb: make(chan struct{}), quit: make(chan struct{}), done: make(chan struct{})}
	go m.run(5 * time.Millisecond)
	for i := 0; i < 2; i++ {
		m.hb <- struct{}{}
	}
	close(m.quit)
	<-m.done
	fmt.Println("expired", m.expired)
}
