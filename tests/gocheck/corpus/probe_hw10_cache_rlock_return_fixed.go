// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a TTL cache guarded by sync.RWMutex with a refresh goroutine
// what: Get releases the read lock with defer on every path, so the refresh goroutine's Lock
//   is granted and main's wait ends
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
	defer c.mu.RUnlock()
	v, ok := c.data[k]
	return v, ok
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
