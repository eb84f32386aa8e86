// want: global-deadlock
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: (hugo-style) a template cache looks a template up under the read lock and, on a miss,
//   takes the write lock while still holding the read lock (a lock "upgrade"); Lock waits for
//   its own reader for ever, and main blocks in wg.Wait

package main

import (
	"fmt"
	"sync"
)

type templateCache struct {
	mu    sync.RWMutex
	items map[string]string
}

func (c *templateCache) get(name string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if t, ok := c.items[name]; ok {
		return t
	}
	c.mu.Lock() // BUG: still holding the read lock
	defer c.mu.Unlock()
	t := "compiled(" + name + ")"
	c.items[name] = t
	return t
}

func main() {
	c := &templateCache{items: map[string]string{"baseof": "compiled(baseof)"}}
	pages := []string{"baseof", "single"}
	var wg sync.WaitGroup
	for _, p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Println("render", p, "with", c.get(p))
		}()
	}
	wg.Wait()
}
