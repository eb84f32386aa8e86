// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the test builds its cache with context.Background(), which is never cancelled, so the
//   cache's janitor goroutine stays blocked for ever in its select once the test has returned

package cache

import (
	"context"
	"sync"
	"testing"
)

type evictReq struct {
	key string
	ack chan struct{}
}

type Cache struct {
	mu    sync.Mutex
	items map[string]string
	evict chan evictReq
	done  chan struct{}
}

// New starts a cache whose janitor goroutine runs until ctx is cancelled.
func New(ctx context.Context) *Cache {
	c := &Cache{items: map[string]string{}, evict: make(chan evictReq), done: make(chan struct{})}
	go c.janitor(ctx)
	return c
}

func (c *Cache) janitor(ctx context.Context) {
	defer close(c.done)
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-c.evict:
			c.mu.Lock()
			delete(c.items, r.key)
			c.mu.Unlock()
			close(r.ack)
		}
	}
}

func (c *Cache) Set(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Evict hands key to the janitor and waits until it is gone.
func (c *Cache) Evict(key string) {
	r := evictReq{key: key, ack: make(chan struct{})}
	c.evict <- r
	<-r.ack
}

// Wait waits for the janitor to stop.
func (c *Cache) Wait() { <-c.done }

func TestEvict(t *testing.T) {
	c := New(context.Background()) // nothing ever stops the janitor
	c.Set("a", "1")
	c.Set("b", "2")
	c.Evict("a")
	if n := c.Len(); n != 1 {
		t.Errorf("Len after Evict = %d, want 1", n)
	}
}
