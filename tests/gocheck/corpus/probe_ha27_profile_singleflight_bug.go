// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a groupcache/singleflight-deduplicated profile cache in front of a backend
// what: when the loader fails, the in-flight call's leader returns early without closing the call's
//   done channel or removing it from the map, so every duplicate caller waits for ever and main waits on them.
package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

type call struct {
	done chan struct{}
	val  string
	err  error
}

type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

// Do runs fn once per key at a time; duplicate callers share the result.
func (g *Group) Do(key string, fn func() (string, error)) (string, error, bool) {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[string]*call)
	}
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		<-c.done
		return c.val, c.err, true
	}
	c := &call{done: make(chan struct{})}
	g.m[key] = c
	g.mu.Unlock()

	c.val, c.err = fn()
	if c.err != nil {
		return "", c.err, false
	}
	close(c.done)
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	return c.val, nil, false
}

var ErrUnavailable = errors.New("backend unavailable")

type Backend struct {
	mu    sync.Mutex
	loads int
	down  map[string]bool
}

func (b *Backend) LoadProfile(id string) (string, error) {
	b.mu.Lock()
	b.loads++
	down := b.down[id]
	b.mu.Unlock()
	if down {
		return "", fmt.Errorf("load %s: %w", id, ErrUnavailable)
	}
	return "profile:" + strings.ToUpper(id), nil
}

func main() {
	backend := &Backend{down: map[string]bool{"user-42": true}}
	var g Group
	requests := []string{"user-42", "user-7", "user-42", "user-42"}
	results := make([]string, len(requests))
	var wg sync.WaitGroup
	for i, id := range requests {
		wg.Add(1)
		go func(i int, id string) {
			defer wg.Done()
			v, err, shared := g.Do(id, func() (string, error) { return backend.LoadProfile(id) })
			if err != nil {
				results[i] = "error: " + err.Error()
				return
			}
			results[i] = fmt.Sprintf("%s (shared=%v)", v, shared)
		}(i, id)
	}
	wg.Wait()
	fmt.Println(strings.Join(results, "\n"), "\nbackend loads:", backend.loads)
}
