// want: channel-safety
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a generic mutex-guarded Cache[K, V] whose Get gained a "defer c.mu.Unlock()" but kept the
//   explicit Unlock on its miss path; a lookup of a missing key unlocks twice (fatal error).

package main

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

type Cache[K comparable, V any] struct {
	mu     sync.Mutex
	items  map[K]V
	misses int
}

func NewCache[K comparable, V any]() *Cache[K, V] {
	return &Cache[K, V]{items: make(map[K]V)}
}

func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
}

func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	if !ok {
		c.misses++
		c.mu.Unlock()
		return v, false
	}
	return v, true
}

func (c *Cache[K, V]) Snapshot() map[K]V {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.items)
}

func main() {
	c := NewCache[string, int]()
	var wg sync.WaitGroup
	for i, k := range []string{"a", "b"} {
		wg.Go(func() { c.Put(k, i) })
	}
	wg.Go(func() {
		if v, ok := c.Get("a"); ok {
			fmt.Println("a =", v)
		}
	})
	wg.Wait()
	fmt.Println(slices.Sorted(maps.Keys(c.Snapshot())))
}
