// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/28462 fixed for this corpus (the stop signal is sent outside the lock); rewritten as package main
// what: StateChanged() releases the container lock before it sends the stop signal, so the
//   monitor can finish its probe and receive it; main waits for both

package main

import "sync"

type Container struct {
	sync.Mutex
	stop chan struct{}
}

func (c *Container) StateChanged() {
	c.Lock()
	c.Unlock()
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
	done := make(chan struct{})
	go func() {
		monitor(c)
		close(done)
	}()
	c.StateChanged()
	<-done
}
