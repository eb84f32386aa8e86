// want: channel-safety
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a consul-style anti-entropy sync: syncChanges starts one goroutine per service whose first
//   statement is wg.Add(1); wg.Wait() can return before any Add runs, then close(results) comes
//   before a late goroutine's send on it: "send on closed channel" (interleaving-dependent, so
//   in some runs every Add comes first and the test passes)

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
		go func() {
			wg.Add(1) // BUG: Add inside the goroutine races with wg.Wait below
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
