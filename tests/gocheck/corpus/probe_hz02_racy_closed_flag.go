// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a Close() guarded by a plain bool flag instead of a mutex or sync.Once
// what: two goroutines call Close; each checks the unguarded closed flag, and both can read false
//   before either sets it (a data race), so done is closed twice
package main

import (
	"fmt"
	"sync"
	"time"
)

type Conn struct {
	closed bool
	done   chan struct{}
}

func (c *Conn) Close() {
	if c.closed { // BUG: racy check-then-act
		return
	}
	time.Sleep(time.Millisecond) // e.g. flushing the write buffer
	c.closed = true
	close(c.done)
}

func main() {
	c := &Conn{done: make(chan struct{})}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
		}()
	}
	wg.Wait()
	fmt.Println("closed")
}
