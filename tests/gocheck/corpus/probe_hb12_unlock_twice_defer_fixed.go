// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb12: no deferred Unlock; every path unlocks exactly once

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
	if c.loaded {
		v := c.value
		c.mu.Unlock()
		return v, nil
	}
	c.mu.Unlock()
	v, err := fetchRemote(key)
	if err != nil {
		return "", fmt.Errorf("load %q: %w", key, err)
	}
	c.mu.Lock()
	c.loaded, c.value = true, v
	c.mu.Unlock()
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
