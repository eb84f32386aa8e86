// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the test stalls the backend, reads results with a time.After timeout and returns on
//   the timeout; its deferred Unlock then lets the producer fetch the next value, and the
//   producer blocks for ever sending it on the unbuffered out channel that nobody reads

package fetch

import (
	"sync"
	"testing"
	"time"
)

type backend struct {
	mu   sync.Mutex
	data map[string]int
}

func (b *backend) get(key string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.data[key]
}

// fetchAll streams the values of keys: cached ones at once, the others from the backend.
func fetchAll(b *backend, cache map[string]int, keys []string) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, k := range keys {
			v, ok := cache[k]
			if !ok {
				v = b.get(k)
			}
			out <- v
		}
	}()
	return out
}

func TestFetchAllStalledBackend(t *testing.T) {
	b := &backend{data: map[string]int{"b": 2, "c": 3}}
	b.mu.Lock()         // stall the backend ...
	defer b.mu.Unlock() // ... until the test is over
	out := fetchAll(b, map[string]int{"a": 1}, []string{"a", "b", "c"})
	got := 0
	for range 3 {
		select {
		case <-out:
			got++
		case <-time.After(30 * time.Millisecond):
			if got != 1 {
				t.Errorf("got %d values before the stall, want 1", got)
			}
			return // gave up on the stalled backend, as the test expects
		}
	}
	t.Fatal("a stalled backend answered")
}
