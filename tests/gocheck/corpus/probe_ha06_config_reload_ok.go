// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Caddy/Traefik-like config holder (lazy sync.Once load, atomic snapshot swap, serialized reloads)
// what: readers take an immutable snapshot from an atomic pointer after a sync.Once initial load,
//   while reloads are serialized by a mutex and validated before the swap; all goroutines are joined with a WaitGroup.
package main

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

type Config struct {
	Version int
	Routes  map[string]string
}

type Holder struct {
	once     sync.Once
	reloadMu sync.Mutex
	current  atomic.Pointer[Config]
	reloads  atomic.Int32
	source   func(version int) string
}

var ErrInvalid = errors.New("invalid config")

func parse(version int, raw string) (*Config, error) {
	cfg := &Config{Version: version, Routes: map[string]string{}}
	for _, line := range strings.Split(strings.TrimSpace(raw), ";") {
		host, upstream, ok := strings.Cut(strings.TrimSpace(line), "->")
		if !ok || host == "" {
			return nil, fmt.Errorf("v%d %q: %w", version, line, ErrInvalid)
		}
		cfg.Routes[strings.TrimSpace(host)] = strings.TrimSpace(upstream)
	}
	return cfg, nil
}

func (h *Holder) Get() *Config {
	h.once.Do(func() {
		cfg, err := parse(1, h.source(1))
		if err != nil {
			cfg = &Config{Version: 0, Routes: map[string]string{}}
		}
		h.current.Store(cfg)
	})
	return h.current.Load()
}

func (h *Holder) Reload(version int) error {
	h.Get() // make sure the initial load happened first
	h.reloadMu.Lock()
	defer h.reloadMu.Unlock()
	if cur := h.current.Load(); cur.Version >= version {
		return nil // stale reload request
	}
	cfg, err := parse(version, h.source(version))
	if err != nil {
		return err
	}
	h.current.Store(cfg)
	h.reloads.Add(1)
	return nil
}

func main() {
	h := &Holder{source: func(v int) string {
		if v == 3 {
			return "api.local -> 10.0.0.5:8080; broken line"
		}
		return "api.local -> 10.0.0." + strconv.Itoa(v) + ":8080; web.local -> 10.0.1.1:80"
	}}
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int]int{}
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				cfg := h.Get()
				mu.Lock()
				seen[cfg.Version]++
				mu.Unlock()
			}
		}()
	}
	errs := make([]error, 4)
	for i, v := range []int{2, 3, 4, 2} {
		wg.Add(1)
		go func(i, v int) {
			defer wg.Done()
			errs[i] = h.Reload(v)
		}(i, v)
	}
	wg.Wait()
	versions := make([]string, 0, len(seen))
	for v, n := range seen {
		versions = append(versions, fmt.Sprintf("v%d:%d", v, n))
	}
	sort.Strings(versions)
	fmt.Println("final", h.Get().Version, "reloads", h.reloads.Load(), "reads", versions, "err", errors.Join(errs...))
}
