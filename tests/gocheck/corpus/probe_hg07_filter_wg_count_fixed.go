// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on health-check fan-out over a filtered service list
// what: fixed version: wg.Add(1) is done next to each `go` statement, inside the filter, so
//   the counter matches the goroutines actually started and wg.Wait returns.

package main

import (
	"fmt"
	"sort"
	"sync"
)

type Service struct {
	Name    string
	Enabled bool
	Probe   func() (latencyMs int, err error)
}

type Report struct {
	mu      sync.Mutex
	healthy map[string]int
	failed  []string
}

func (r *Report) record(name string, ms int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.failed = append(r.failed, name)
		return
	}
	r.healthy[name] = ms
}

func probeAll(svcs []Service) *Report {
	rep := &Report{healthy: make(map[string]int)}
	var wg sync.WaitGroup
	for _, s := range svcs {
		if !s.Enabled {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms, err := s.Probe()
			rep.record(s.Name, ms, err)
		}()
	}
	wg.Wait()
	return rep
}

func fixed(ms int) func() (int, error) {
	return func() (int, error) { return ms, nil }
}

func main() {
	svcs := []Service{
		{Name: "api", Enabled: true, Probe: fixed(12)},
		{Name: "legacy", Enabled: false, Probe: fixed(300)},
		{Name: "db", Enabled: true, Probe: func() (int, error) { return 0, fmt.Errorf("timeout") }},
	}
	rep := probeAll(svcs)
	names := make([]string, 0, len(rep.healthy))
	for n := range rep.healthy {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Println("healthy:", names, "failed:", rep.failed)
}
