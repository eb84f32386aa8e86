// want: ok
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Readers wait on a sync.Cond whose L is the RWMutex's RLocker until the config is loaded; the loader sets
//   the flag under the write lock and broadcasts, and Wait enqueues before it releases the read lock, so no wakeup is lost.

package main

import (
	"fmt"
	"sync"
)

type Config struct {
	mu     sync.RWMutex
	ready  *sync.Cond
	loaded bool
	val    int
}

func newConfig() *Config {
	c := &Config{}
	c.ready = sync.NewCond(c.mu.RLocker())
	return c
}

func (c *Config) Get() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for !c.loaded {
		c.ready.Wait()
	}
	return c.val
}

func (c *Config) Load(v int) {
	c.mu.Lock()
	c.val = v
	c.loaded = true
	c.mu.Unlock()
	c.ready.Broadcast()
}

func main() {
	c := newConfig()
	results := make(chan int)
	for range 2 {
		go func() { results <- c.Get() }()
	}
	c.Load(42)
	fmt.Println(<-results + <-results)
}
