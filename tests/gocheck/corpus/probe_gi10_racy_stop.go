// want: channel-safety
// source: check-then-close on a "closed" flag without a lock, a classic racy shutdown bug
// what: the health checker and main both call Stop; Stop checks a plain bool, flushes metrics,
//   then sets it and closes; two overlapping calls both pass the check and both close the channel.
package main

import (
	"fmt"
	"sync"
	"time"
)

type monitor struct {
	stopped bool
	stop    chan struct{}
	wg      sync.WaitGroup
}

func (m *monitor) Stop() {
	if m.stopped {
		return
	}
	m.flushMetrics() // report the final numbers before shutting down
	m.stopped = true
	close(m.stop)
}

func (m *monitor) flushMetrics() {
	time.Sleep(2 * time.Millisecond) // write to the metrics sink
}

func (m *monitor) run(checks []bool) {
	defer m.wg.Done()
	for _, healthy := range checks {
		select {
		case <-m.stop:
			return
		case <-time.After(time.Millisecond):
		}
		if !healthy {
			fmt.Println("monitor: backend unhealthy, stopping")
			m.Stop()
			return
		}
	}
}

func main() {
	m := &monitor{stop: make(chan struct{})}
	m.wg.Add(1)
	go m.run([]bool{true, true, false, true})
	time.Sleep(3 * time.Millisecond) // serve for a while
	m.Stop()
	m.wg.Wait()
	fmt.Println("monitor stopped")
}
