// want: ok
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_sc07_antientropy_add (a consul-style anti-entropy sync): wg.Add(1) runs
//   before each go statement, so wg.Wait() returns only after every goroutine's send, and
//   close(results) follows all of them (results has room for every service)

package agent

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"
)

type service struct {
	id   string
	port int
}

type syncResult struct {
	id  string
	err error
}

type localState struct {
	mu       sync.RWMutex
	services map[string]*service
	inSync   map[string]bool
}

func newLocalState(ids ...string) *localState {
	l := &localState{services: map[string]*service{}, inSync: map[string]bool{}}
	for i, id := range ids {
		l.services[id] = &service{id: id, port: 8000 + i}
	}
	return l
}

func (l *localState) syncService(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	l.inSync[id] = true
	l.mu.Unlock()
	return nil
}

func (l *localState) syncChanges(ctx context.Context) []syncResult {
	l.mu.RLock()
	ids := make([]string, 0, len(l.services))
	for id := range l.services {
		ids = append(ids, id)
	}
	l.mu.RUnlock()
	sort.Strings(ids)

	results := make(chan syncResult, len(ids))
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- syncResult{id: id, err: l.syncService(ctx, id)}
		}()
	}
	wg.Wait()
	close(results)
	var out []syncResult
	for r := range results {
		out = append(out, r)
	}
	return out
}

func TestAntiEntropySync(t *testing.T) {
	t.Run("all services", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		l := newLocalState("web", "db", "cache")
		if out := l.syncChanges(ctx); len(out) > 3 {
			t.Fatalf("got %d results for 3 services", len(out))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		l := newLocalState("web", "db")
		for _, r := range l.syncChanges(ctx) {
			if r.err == nil {
				t.Errorf("service %s synced after cancel", r.id)
			}
		}
	})
}
