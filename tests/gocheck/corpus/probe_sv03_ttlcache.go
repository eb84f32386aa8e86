// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of service-like programs (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: A TTL cache whose janitor goroutine ranges over a ticker's channel; Close only stops the ticker,
//   and a stopped ticker's channel is never closed, so the janitor is left blocked for ever after main returns.

package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Clock lets tests substitute time.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// EvictFunc is called, outside the cache's lock, for every entry that expires.
type EvictFunc func(key, value string)

type entry struct {
	value   string
	expires time.Time
}

type evicted struct {
	key, value string
}

type Cache struct {
	mu      sync.Mutex
	items   map[string]entry
	ttl     time.Duration
	clock   Clock
	onEvict EvictFunc
	closed  bool

	interval time.Duration
	ticker   *time.Ticker
}

func NewCache(ttl, cleanupInterval time.Duration, onEvict EvictFunc) *Cache {
	return &Cache{
		items:    make(map[string]entry),
		ttl:      ttl,
		clock:    realClock{},
		onEvict:  onEvict,
		interval: cleanupInterval,
	}
}

// Start launches the janitor that removes expired entries periodically.
func (c *Cache) Start() {
	c.ticker = time.NewTicker(c.interval)
	go c.janitor()
}

func (c *Cache) janitor() {
	for range c.ticker.C {
		c.DeleteExpired()
	}
}

func (c *Cache) Set(key, value string) {
	c.SetWithTTL(key, value, c.ttl)
}

func (c *Cache) SetWithTTL(key, value string, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = entry{value: value, expires: c.clock.Now().Add(ttl)}
}

func (c *Cache) Get(key string) (string, bool) {
	now := c.clock.Now()
	c.mu.Lock()
	e, ok := c.items[key]
	if ok && now.After(e.expires) {
		delete(c.items, key)
		c.mu.Unlock()
		c.evict([]evicted{{key, e.value}})
		return "", false
	}
	c.mu.Unlock()
	return e.value, ok
}

func (c *Cache) DeleteExpired() {
	now := c.clock.Now()
	var gone []evicted
	c.mu.Lock()
	for k, e := range c.items {
		if now.After(e.expires) {
			delete(c.items, k)
			gone = append(gone, evicted{k, e.value})
		}
	}
	c.mu.Unlock()
	c.evict(gone)
}

func (c *Cache) evict(gone []evicted) {
	if c.onEvict == nil {
		return
	}
	for _, g := range gone {
		c.onEvict(g.key, g.value)
	}
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Close stops the janitor. It is safe to call more than once.
func (c *Cache) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.ticker.Stop()
}

func main() {
	var evictions atomic.Int32
	cache := NewCache(time.Hour, 10*time.Millisecond, func(key, value string) {
		evictions.Add(1)
	})
	cache.Start()
	defer cache.Close()

	cache.SetWithTTL("session:a", "alice", 15*time.Millisecond)
	cache.Set("session:b", "bob")

	time.Sleep(40 * time.Millisecond)

	if _, ok := cache.Get("session:a"); !ok {
		fmt.Println("session:a expired")
	}
	if v, ok := cache.Get("session:b"); ok {
		fmt.Println("session:b =", v)
	}
	fmt.Println("entries:", cache.Len(), "evictions:", evictions.Load())
}
