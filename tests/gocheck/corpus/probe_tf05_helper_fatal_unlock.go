// want: global-deadlock
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: mustRegister (a testing.TB helper) calls tb.Fatalf while holding the registry's mutex
//   and unlocks it only on the normal path: the Goexit runs the deferred wg.Done, so the sealer
//   goroutine goes on to Lock the mutex and blocks for ever, and the test's cleanup waits for it

package registry

import (
	"sync"
	"testing"
)

type Registry struct {
	mu     sync.Mutex
	names  map[string]int
	sealed bool
}

// SealAfter seals r once the registrations counted by wg have finished; done is closed then.
func (r *Registry) SealAfter(wg *sync.WaitGroup) (done <-chan struct{}) {
	ch := make(chan struct{})
	go func() {
		wg.Wait()
		r.mu.Lock()
		r.sealed = true
		r.mu.Unlock()
		close(ch)
	}()
	return ch
}

// mustRegister registers name and fails the test on a duplicate.
func mustRegister(tb testing.TB, r *Registry, wg *sync.WaitGroup, name string) {
	tb.Helper()
	defer wg.Done()
	r.mu.Lock()
	if _, dup := r.names[name]; dup {
		tb.Fatalf("plugin %q registered twice", name)
	}
	r.names[name] = len(r.names)
	r.mu.Unlock()
}

func defaultPlugins() []string { return []string{"gzip", "json", "gzip"} } // a regression

func TestRegisterDefaults(t *testing.T) {
	r := &Registry{names: map[string]int{}}
	plugins := defaultPlugins()
	var wg sync.WaitGroup
	wg.Add(len(plugins))
	sealed := r.SealAfter(&wg)
	t.Cleanup(func() { <-sealed })
	for _, p := range plugins {
		mustRegister(t, r, &wg, p)
	}
	if len(r.names) != len(plugins) {
		t.Errorf("%d plugins registered, want %d", len(r.names), len(plugins))
	}
}
