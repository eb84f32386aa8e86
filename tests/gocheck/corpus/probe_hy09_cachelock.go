// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV KEYS="sku-1,sku-2,sku-1"), in the style of a read-through cache in front of a slow loader, used by a batch job
// what: Get holds c.mu and, on a miss, calls c.fill, which locks c.mu again; sync.Mutex is not
//   reentrant, so the first cache miss blocks the worker for ever, and main blocks in
//   wg.Wait: deadlock for any non-empty key list (every first lookup is a miss).
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

type cache struct {
	mu   sync.Mutex
	data map[string]int
}

func load(key string) int {
	return len(key) * 7
}

func (c *cache) fill(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := load(key)
	c.data[key] = v
	return v
}

func (c *cache) Get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.data[key]; ok {
		return v
	}
	return c.fill(key)
}

func main() {
	keys := strings.Split(os.Getenv("KEYS"), ",")
	c := &cache{data: map[string]int{}}
	prices := make([]int, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prices[i] = c.Get(k)
		}()
	}
	wg.Wait()
	fmt.Println(prices)
}
