// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/28462 (moby/moby PR 28462, issue 28405); rewritten as package main
// what: StateChanged() holds the container lock while it sends on the monitor's unbuffered stop
//   channel; the monitor's loop is blocked taking that lock in handleProbeResult, so neither can
//   go on (a lock/channel cycle between two goroutines, main returns; interleaving-dependent)

package main

import (
	"sync"
	"time"
)

type Container struct {
	sync.Mutex
	stop chan struct{}
}

func (c *Container) StateChanged() {
	c.Lock()
	defer c.Unlock()
	c.stop <- struct{}{}
}

func monitor(c *Container) {
	for {
		select {
		case <-c.stop:
			return
		default:
			handleProbeResult(c)
		}
	}
}

func handleProbeResult(c *Container) {
	c.Lock()
	defer c.Unlock()
}

func main() {
	c := &Container{stop: make(chan struct{})}
	go monitor(c)
	go c.StateChanged()
	time.Sleep(5 * time.Millisecond)
}
