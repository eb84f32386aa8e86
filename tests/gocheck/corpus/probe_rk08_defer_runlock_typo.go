// want: channel-safety
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: (a typo seen in several Go services) two services register concurrently; Register()
//   takes the registry's write lock but defers RUnlock instead of Unlock, and RUnlock of an
//   RWMutex that no reader holds is a fatal error ("sync: RUnlock of unlocked RWMutex")

package main

import (
	"fmt"
	"sync"
)

type registry struct {
	mu    sync.RWMutex
	hosts map[string]int
}

func (r *registry) Lookup(name string) (int, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	port, ok := r.hosts[name]
	return port, ok
}

func (r *registry) Register(name string, port int) {
	r.mu.Lock()
	defer r.mu.RUnlock() // BUG: should be Unlock
	r.hosts[name] = port
}

func main() {
	r := &registry{hosts: make(map[string]int)}
	services := []string{"api", "metrics"}
	var wg sync.WaitGroup
	for i, name := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Register(name, 8080+i)
		}()
	}
	wg.Wait()
	port, ok := r.Lookup("api")
	fmt.Println("lookup:", port, ok)
}
