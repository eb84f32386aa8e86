// want: channel-safety
// source: "panic: close of nil channel" from a constructor path that forgets to make() a channel
// what: newPoller only creates the done channel when an interval is configured; a poller built
//   with the default interval has a nil done channel, and Close closes it.
package main

import (
	"fmt"
	"sync"
	"time"
)

type poller struct {
	interval time.Duration
	done     chan struct{}
	wg       sync.WaitGroup
}

func newPoller(interval time.Duration) *poller {
	p := &poller{interval: time.Millisecond}
	if interval > 0 {
		p.interval = interval
		p.done = make(chan struct{})
	}
	return p
}

func (p *poller) Start(name string) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for i := 0; i < 3; i++ {
			fmt.Println(name, "poll", i)
			time.Sleep(p.interval)
		}
	}()
}

func (p *poller) Close() {
	close(p.done)
	p.wg.Wait()
}

func main() {
	a := newPoller(2 * time.Millisecond)
	b := newPoller(0) // use the default interval
	a.Start("a")
	b.Start("b")
	a.Close()
	b.Close()
	fmt.Println("pollers closed")
}
