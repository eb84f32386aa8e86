// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Kubernetes-style health prober with a wait-with-timeout helper
// what: every probe goroutine calls wg.Done through defer, so the error path counts down too and
//   the waiter goroutine closes done; waitTimeout returns true.
package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type Probe struct {
	Name string
	Addr string
}

type resultSet struct {
	mu      sync.Mutex
	healthy map[string]int
	failed  map[string]error
}

func (r *resultSet) ok(name string, port int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.healthy[name] = port
}

func (r *resultSet) fail(name string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed[name] = err
}

func parsePort(addr string) (int, error) {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return 0, fmt.Errorf("address %q: missing port", addr)
	}
	return strconv.Atoi(addr[i+1:])
}

func runProbes(probes []Probe, results *resultSet, wg *sync.WaitGroup) {
	for _, p := range probes {
		wg.Add(1)
		go func(p Probe) {
			defer wg.Done()
			port, err := parsePort(p.Addr)
			if err != nil {
				results.fail(p.Name, err)
				return
			}
			results.ok(p.Name, port)
		}(p)
	}
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

func main() {
	probes := []Probe{
		{"etcd", "10.0.0.2:2379"},
		{"apiserver", "10.0.0.3:6443"},
		{"scheduler", "10.0.0.4"},
	}
	results := &resultSet{healthy: map[string]int{}, failed: map[string]error{}}
	var wg sync.WaitGroup
	runProbes(probes, results, &wg)
	if !waitTimeout(&wg, 2*time.Second) {
		fmt.Println("probes did not finish in time")
	}
	results.mu.Lock()
	names := make([]string, 0, len(results.healthy))
	for n := range results.healthy {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Println("healthy:", names, "failed:", len(results.failed))
	results.mu.Unlock()
}
