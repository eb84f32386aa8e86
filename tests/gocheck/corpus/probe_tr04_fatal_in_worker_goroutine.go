// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a concurrent parser test that calls t.Fatalf from spawned goroutines
// what: each goroutine calls t.Fatalf on a parse error before its (non-deferred) wg.Done; Fatalf ends
//   that goroutine through runtime.Goexit, Done never runs, and the test hangs in wg.Wait instead of failing

package kv

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// ParsePair parses "key=value".
func ParsePair(s string) (string, string, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return "", "", fmt.Errorf("kv: malformed pair %q", s)
	}
	return k, v, nil // does not trim spaces around the key yet
}

func TestParsePairConcurrent(t *testing.T) {
	inputs := map[string]string{
		"a=1":   "a",
		" b=2":  "b",
		"c=x=y": "c",
	}
	var wg sync.WaitGroup
	for in, wantKey := range inputs {
		wg.Add(1)
		go func() {
			k, _, err := ParsePair(in)
			if err != nil {
				t.Fatalf("ParsePair(%q): %v", in, err)
			}
			if k != wantKey {
				t.Fatalf("ParsePair(%q) key = %q, want %q", in, k, wantKey) // BUG: skips wg.Done
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
