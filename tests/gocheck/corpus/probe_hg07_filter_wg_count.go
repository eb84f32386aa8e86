// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on health-check fan-out over a filtered service list
// what: probeAll adds len(svcs) to the WaitGroup but starts a goroutine (each calling the Probe
//   func stored in the struct) only for enabled services; the disabled one never calls Done,
//   so wg.Wait in main blocks for ever after the probes finish.

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
	wg.Add(len(svcs)) // BUG: counts disabled services too
	for _, s := range svcs {
		if !s.Enabled {
			continue
		}
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
