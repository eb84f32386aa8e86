// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a parser test (a minimal reproduction of probe_tr03, without its goroutine)
// what: the test blocks on a channel nobody sends on only if strings.Cut splits a constant wrongly, which
//   it never does; a local function doing the same comparison is checked too

package kv

import (
	"strings"
	"testing"
)

func key(s string) string {
	k, _, _ := strings.Cut(s, "=")
	return k
}

func TestCutKeyNoGoroutine(t *testing.T) {
	never := make(chan struct{})
	if key("a=1") != "a" {
		<-never
	}
}
