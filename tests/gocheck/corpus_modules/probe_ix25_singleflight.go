// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26 by tests/gocheck/confirm.py --dir, golang.org/x/sync taken from the module cache; see docs/gocheck-report.md)
// what: singleflight dedupes concurrent loads, semaphore bounds them

package main

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"
)

type Cache struct {
	g   singleflight.Group
	sem *semaphore.Weighted
	mu  sync.RWMutex
	m   map[string]string
}

func (c *Cache) Get(ctx context.Context, k string) (string, error) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	r, err, _ := c.g.Do(k, func() (any, error) {
		if err := c.sem.Acquire(ctx, 1); err != nil {
			return nil, err
		}
		defer c.sem.Release(1)
		val := "v-" + k
		c.mu.Lock()
		c.m[k] = val
		c.mu.Unlock()
		return val, nil
	})
	if err != nil {
		return "", err
	}
	return r.(string), nil
}

func main() {
	c := &Cache{sem: semaphore.NewWeighted(2), m: map[string]string{}}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.Get(context.Background(), []string{"a", "b"}[i%2])
			fmt.Println(v, err)
		}()
	}
	wg.Wait()
}
