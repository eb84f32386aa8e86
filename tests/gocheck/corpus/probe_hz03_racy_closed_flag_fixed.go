// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a Close() guarded by a plain bool flag instead of a mutex or sync.Once
// what: the flag is checked and set under a mutex, so only one of the two Close calls closes done
package main

import (
	"fmt"
	"sync"
	"time"
)

type Conn struct {
	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	time.Sleep(time.Millisecond)
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
