// want: global-deadlock
// source: lock-order inversion between two components' mutexes (ABBA), as in many Go bug reports
// what: cache.Get locks cache.mu and then records a hit under stats.mu, while stats.Report locks
//   stats.mu and then asks the cache for its size under cache.mu; run together they can deadlock.
package main

import (
	"fmt"
	"sync"
	"time"
)

type stats struct {
	mu    sync.Mutex
	hits  int
	cache *cache
}

type cache struct {
	mu    sync.Mutex
	items map[string]string
	stats *stats
}

func (c *cache) Get(k string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	if ok {
		c.stats.recordHit()
	}
	return v, ok
}

func (c *cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

func (s *stats) recordHit() {
	s.mu.Lock()
	s.hits++
	s.mu.Unlock()
}

func (s *stats) Report() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	time.Sleep(100 * time.Microsecond) // format the report
	return fmt.Sprintf("hits=%d size=%d", s.hits, s.cache.Len())
}

func main() {
	c := &cache{items: map[string]string{"a": "1", "b": "2"}}
	s := &stats{cache: c}
	c.stats = s
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 500; i++ {
			c.Get("a")
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 10; i++ {
			fmt.Println(s.Report())
		}
	}()
	wg.Wait()
}
