// want: ok
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed version passes t.Context(), which the testing package cancels just before
//   the test's cleanups run, so the janitor returns and the cleanup's c.Wait() ends

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
	c := New(t.Context()) // cancelled when the test ends, before its cleanups
	t.Cleanup(c.Wait)
	c.Set("a", "1")
	c.Set("b", "2")
	c.Evict("a")
	if n := c.Len(); n != 1 {
		t.Errorf("Len after Evict = %d, want 1", n)
	}
}
