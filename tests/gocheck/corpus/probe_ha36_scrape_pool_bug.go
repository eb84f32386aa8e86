// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Prometheus-like scrape pool notifying listeners on target sync
// what: Sync calls the change listeners while still holding the pool's write lock, and the API
//   listener calls ActiveTargets, which takes the read lock: the sync goroutine blocks on itself and main waits.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type Target struct {
	Job    string
	Addr   string
	Labels map[string]string
}

type TargetGroup struct {
	Source  string
	Targets []string
}

type ScrapePool struct {
	mu        sync.RWMutex
	job       string
	targets   map[string]*Target
	listeners []func(*ScrapePool)
}

func NewScrapePool(job string) *ScrapePool {
	return &ScrapePool{job: job, targets: make(map[string]*Target)}
}

func (p *ScrapePool) OnChange(f func(*ScrapePool)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.listeners = append(p.listeners, f)
}

// Sync replaces the pool's targets with the discovered groups and notifies listeners.
func (p *ScrapePool) Sync(groups []TargetGroup) {
	p.mu.Lock()
	defer p.mu.Unlock()
	next := make(map[string]*Target)
	for _, g := range groups {
		for _, addr := range g.Targets {
			next[addr] = &Target{Job: p.job, Addr: addr, Labels: map[string]string{"source": g.Source}}
		}
	}
	p.targets = next
	for _, f := range p.listeners {
		f(p)
	}
}

func (p *ScrapePool) ActiveTargets() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]string, 0, len(p.targets))
	for addr := range p.targets {
		out = append(out, addr)
	}
	sort.Strings(out)
	return out
}

type apiCache struct {
	mu      sync.Mutex
	targets []string
}

func main() {
	pool := NewScrapePool("node")
	api := &apiCache{}
	pool.OnChange(func(p *ScrapePool) {
		t := p.ActiveTargets()
		api.mu.Lock()
		api.targets = t
		api.mu.Unlock()
	})

	updates := make(chan []TargetGroup)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for groups := range updates {
			pool.Sync(groups)
		}
	}()
	updates <- []TargetGroup{{Source: "file_sd", Targets: []string{"10.0.0.1:9100", "10.0.0.2:9100"}}}
	updates <- []TargetGroup{{Source: "file_sd", Targets: []string{"10.0.0.2:9100", "10.0.0.3:9100"}}}
	close(updates)
	<-done
	api.mu.Lock()
	fmt.Println("active:", strings.Join(api.targets, ", "))
	api.mu.Unlock()
}
