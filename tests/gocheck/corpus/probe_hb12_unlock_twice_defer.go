// want: channel-safety
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (cockroach-style) cache.load() locks with a deferred Unlock, drops the lock around a
//   slow remote fetch, and on the fetch's error path returns without re-locking, so the
//   deferred Unlock unlocks an unlocked mutex (fatal error)

package main

import (
	"errors"
	"fmt"
	"sync"
)

type cache struct {
	mu     sync.Mutex
	loaded bool
	value  string
}

func fetchRemote(key string) (string, error) {
	if key == "missing" {
		return "", errors.New("not found")
	}
	return "v-" + key, nil
}

func (c *cache) load(key string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded {
		return c.value, nil
	}
	c.mu.Unlock()
	v, err := fetchRemote(key)
	if err != nil {
		return "", fmt.Errorf("load %q: %w", key, err) // BUG: deferred Unlock on an unlocked mutex
	}
	c.mu.Lock()
	c.loaded, c.value = true, v
	return v, nil
}

func main() {
	c := &cache{}
	if _, err := c.load("missing"); err != nil {
		fmt.Println(err)
	}
	v, _ := c.load("a")
	fmt.Println(v)
}
