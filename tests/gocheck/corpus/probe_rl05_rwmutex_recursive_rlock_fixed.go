// want: ok
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of probe_rl05_rwmutex_recursive_rlock: Describe reads the endpoints through
//   endpointsLocked, which expects the caller to hold the lock, so no goroutine ever takes the read
//   lock twice and a waiting writer can only delay, never block, the readers

package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Registry maps service names to the endpoints that currently serve them.
type Registry struct {
	mu       sync.RWMutex
	services map[string][]string
}

func NewRegistry() *Registry {
	return &Registry{services: make(map[string][]string)}
}

// Register adds an endpoint for a service.
func (r *Registry) Register(service, endpoint string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.services[service] = append(r.services[service], endpoint)
}

// Endpoints returns a copy of the endpoints currently serving service.
func (r *Registry) Endpoints(service string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.endpointsLocked(service)
}

// endpointsLocked is Endpoints for callers that already hold r.mu.
func (r *Registry) endpointsLocked(service string) []string {
	return slices.Clone(r.services[service])
}

// Describe renders the whole registry for the debug page.
func (r *Registry) Describe() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(r.services)) {
		fmt.Fprintf(&b, "%-8s %s\n", name, strings.Join(r.endpointsLocked(name), ", "))
	}
	return b.String()
}

func main() {
	reg := NewRegistry()
	for _, s := range []string{"auth", "billing", "search", "users"} {
		reg.Register(s, s+"-0:8080")
	}

	var wg sync.WaitGroup
	// Two health checkers bring new endpoints up.
	for w := 1; w <= 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i <= 5; i++ {
				svc := []string{"auth", "billing", "search", "users"}[(w+i)%4]
				reg.Register(svc, fmt.Sprintf("%s-%d:8080", svc, w*10+i))
			}
		}()
	}
	// Two debug-page requests render the registry.
	pages := make([]string, 2)
	for p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				pages[p] = reg.Describe()
			}
		}()
	}
	wg.Wait()
	fmt.Print(pages[0])
	fmt.Println(len(reg.Endpoints("auth")), "auth endpoints")
}
