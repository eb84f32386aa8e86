// want: ok
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: Close checks closed.Load() and then Stores true: two concurrent Closes can both see
//   false and both close the channel

package main

import (
	"sync"
	"sync/atomic"
)

type conn struct {
	closed atomic.Bool
	done   chan struct{}
}

func (c *conn) Close() {
	if !c.closed.CompareAndSwap(false, true) {
		return
	}
	close(c.done)
}

func main() {
	c := &conn{done: make(chan struct{})}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
		}()
	}
	wg.Wait()
}
