// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a TTL cache guarded by sync.RWMutex with a refresh goroutine
// what: Get returns early on a miss without RUnlock; the refresh goroutine's Lock then blocks for
//   ever, and main waits for the refresh to finish: every goroutine is blocked
package main

import (
	"fmt"
	"sync"
)

type Cache struct {
	mu   sync.RWMutex
	data map[string]string
}

func (c *Cache) Get(k string) (string, bool) {
	c.mu.RLock()
	v, ok := c.data[k]
	if !ok {
		return "", false // BUG: missing c.mu.RUnlock()
	}
	c.mu.RUnlock()
	return v, true
}

func (c *Cache) refresh(keys []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range keys {
		c.data[k] = "v-" + k
	}
}

func main() {
	c := &Cache{data: map[string]string{"a": "1"}}
	if _, ok := c.Get("b"); !ok {
		fmt.Println("miss b")
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.refresh([]string{"a", "b"})
	}()
	wg.Wait()
	v, _ := c.Get("b")
	fmt.Println(v)
}
