// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a read-mostly LRU cache that "upgrades" its RWMutex on a miss
// what: on a cache miss Get takes the write lock while still holding its own read lock; Lock waits
//   for that reader for ever, later readers queue behind the pending writer, and main waits for them all.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

type entry struct {
	key      string
	val      []byte
	lastUsed int64
}

type Cache struct {
	mu    sync.RWMutex
	items map[string]*entry
	clock int64
	max   int
	fetch func(key string) ([]byte, error)
}

func NewCache(max int, fetch func(string) ([]byte, error)) *Cache {
	return &Cache{items: make(map[string]*entry), max: max, fetch: fetch}
}

func (c *Cache) tick() int64 { return atomic.AddInt64(&c.clock, 1) }

func (c *Cache) Put(key string, val []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = &entry{key: key, val: val, lastUsed: c.tick()}
	c.evictLocked()
}

func (c *Cache) evictLocked() {
	for len(c.items) > c.max {
		var oldest *entry
		for _, e := range c.items {
			if oldest == nil || atomic.LoadInt64(&e.lastUsed) < atomic.LoadInt64(&oldest.lastUsed) {
				oldest = e
			}
		}
		delete(c.items, oldest.key)
	}
}

// Get returns the cached value, fetching and inserting it on a miss.
func (c *Cache) Get(key string) ([]byte, error) {
	c.mu.RLock()
	if e, ok := c.items[key]; ok {
		atomic.StoreInt64(&e.lastUsed, c.tick())
		c.mu.RUnlock()
		return e.val, nil
	}
	// Miss: upgrade to the write lock to fill the entry.
	c.mu.Lock()
	defer c.mu.Unlock()
	val, err := c.fetch(key)
	if err != nil {
		return nil, err
	}
	c.items[key] = &entry{key: key, val: val, lastUsed: c.tick()}
	c.evictLocked()
	return val, nil
}

func main() {
	c := NewCache(3, func(key string) ([]byte, error) {
		return []byte(strings.Repeat(key[:1], len(key))), nil
	})
	c.Put("alpha", []byte("A"))
	c.Put("beta", []byte("B"))

	lookups := [][]string{{"alpha", "beta"}, {"beta", "gamma", "alpha"}, {"alpha"}}
	sizes := make([]int, len(lookups))
	var wg sync.WaitGroup
	for i, keys := range lookups {
		wg.Add(1)
		go func(i int, keys []string) {
			defer wg.Done()
			for _, k := range keys {
				v, err := c.Get(k)
				if err != nil {
					fmt.Println("get", k, err)
					continue
				}
				sizes[i] += len(v)
			}
		}(i, keys)
	}
	wg.Wait()
	sort.Ints(sizes)
	fmt.Println("bytes read per client:", sizes)
}
