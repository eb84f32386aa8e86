// want: global-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a cache upgrades a read lock to a write lock without releasing it first

package main

import (
	"fmt"
	"sync"
)

type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Cache) GetOrSet(k string, v int) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if x, ok := c.m[k]; ok {
		return x
	}
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
	return v
}

func main() {
	c := &Cache{m: map[string]int{}}
	fmt.Println(c.GetOrSet("a", 1))
}
