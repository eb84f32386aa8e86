// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Prometheus-like scrape manager reloading per-target scrape loops
// what: each target has a ticker-driven scrape loop with its own stop and done channels; Reload stops
//   loops for vanished targets and waits for them, starts new ones, and Stop does the same for all.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type scrapeLoop struct {
	target   string
	interval time.Duration
	scrapes  atomic.Int64
	stop     chan struct{}
	done     chan struct{}
}

func newLoop(target string, interval time.Duration) *scrapeLoop {
	return &scrapeLoop{target: target, interval: interval, stop: make(chan struct{}), done: make(chan struct{})}
}

func (l *scrapeLoop) run() {
	defer close(l.done)
	t := time.NewTicker(l.interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			l.scrapes.Add(1)
		case <-l.stop:
			return
		}
	}
}

func (l *scrapeLoop) halt() {
	close(l.stop)
	<-l.done
}

type Manager struct {
	mu     sync.Mutex
	loops  map[string]*scrapeLoop
	totals map[string]int64
}

func NewManager() *Manager {
	return &Manager{loops: map[string]*scrapeLoop{}, totals: map[string]int64{}}
}

func (m *Manager) Reload(targets []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	want := map[string]bool{}
	for _, t := range targets {
		want[t] = true
	}
	for t, l := range m.loops {
		if !want[t] {
			l.halt()
			m.totals[t] += l.scrapes.Load()
			delete(m.loops, t)
		}
	}
	for t := range want {
		if _, ok := m.loops[t]; !ok {
			l := newLoop(t, time.Millisecond)
			m.loops[t] = l
			go l.run()
		}
	}
}

func (m *Manager) Stop() {
	m.Reload(nil)
}

func main() {
	m := NewManager()
	m.Reload([]string{"node-a:9100", "node-b:9100"})
	time.Sleep(3 * time.Millisecond)
	m.Reload([]string{"node-b:9100", "node-c:9100"})
	time.Sleep(3 * time.Millisecond)
	m.Stop()

	var names []string
	for t := range m.totals {
		names = append(names, strings.TrimSuffix(t, ":9100"))
	}
	sort.Strings(names)
	fmt.Println("scraped targets:", names, "running:", len(m.loops))
}
