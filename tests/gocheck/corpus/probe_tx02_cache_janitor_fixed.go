// want: ok
// source: an expiring cache with a janitor goroutine, in the style of go-cache, written for this set
// what: Close closes the janitor's done channel once (guarded by the closed flag)
//   and waits for the janitor to return.

package cache

import (
	"sync"
	"testing"
	"time"
)

type entry struct {
	val     string
	expires time.Time
}

type Cache struct {
	mu     sync.Mutex
	items  map[string]entry
	sweep  chan chan int
	done   chan struct{}
	closed bool
	exited chan struct{}
}

func New() *Cache {
	c := &Cache{items: map[string]entry{}, sweep: make(chan chan int), done: make(chan struct{}), exited: make(chan struct{})}
	go c.janitor()
	return c
}

func (c *Cache) janitor() {
	defer close(c.exited)
	for {
		select {
		case reply := <-c.sweep:
			reply <- c.evict(time.Now())
		case <-c.done:
			return
		}
	}
}

func (c *Cache) evict(now time.Time) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, e := range c.items {
		if now.After(e.expires) {
			delete(c.items, k)
			n++
		}
	}
	return n
}

func (c *Cache) Set(k, v string, ttl time.Duration) {
	c.mu.Lock()
	c.items[k] = entry{v, time.Now().Add(ttl)}
	c.mu.Unlock()
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Sweep asks the janitor to evict expired entries now.
func (c *Cache) Sweep() int {
	reply := make(chan int, 1)
	c.sweep <- reply
	return <-reply
}

func (c *Cache) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	close(c.done)
	c.mu.Unlock()
	<-c.exited
}

func TestCacheSweep(t *testing.T) {
	cases := []struct {
		name    string
		ttl     time.Duration
		evicted int
	}{
		{"expired", -time.Second, 2},
		{"fresh", time.Hour, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := New()
			t.Cleanup(c.Close)
			c.Set("a", "1", tc.ttl)
			c.Set("b", "2", tc.ttl)
			if got := c.Sweep(); got != tc.evicted {
				t.Errorf("Sweep() = %d, want %d", got, tc.evicted)
			}
			if got := c.Len(); got != 2-tc.evicted {
				t.Errorf("Len() = %d, want %d", got, 2-tc.evicted)
			}
		})
	}
}
