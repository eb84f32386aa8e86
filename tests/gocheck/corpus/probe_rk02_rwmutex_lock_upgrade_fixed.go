// want: ok
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fixed version of rk02: on a miss get() releases the read lock, takes the write lock and
//   looks again before compiling (another renderer may have filled the entry meanwhile)

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
	t, ok := c.items[name]
	c.mu.RUnlock()
	if ok {
		return t
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.items[name]; ok {
		return t
	}
	t = "compiled(" + name + ")"
	c.items[name] = t
	return t
}

func main() {
	c := &templateCache{items: map[string]string{"baseof": "compiled(baseof)"}}
	pages := []string{"baseof", "single", "single"}
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
