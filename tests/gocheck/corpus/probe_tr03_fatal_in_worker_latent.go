// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a concurrent parser test that calls t.Fatalf from spawned goroutines
// what: the same test as probe_tr04_fatal_in_worker_goroutine (t.Fatalf before a non-deferred wg.Done), but every
//   input parses to the wanted key, so no Fatalf is ever reached and the test passes

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
	return k, v, nil
}

func TestParsePairConcurrent(t *testing.T) {
	inputs := map[string]string{
		"a=1":   "a",
		"b=2":   "b",
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
				t.Fatalf("ParsePair(%q) key = %q, want %q", in, k, wantKey)
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
