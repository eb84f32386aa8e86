// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a table test whose subtests call t.Parallel while the parent collects their results
// what: a subtest that calls t.Parallel is paused until its parent's function returns, but the
//   parent waits (after t.Run) for the subtest's result on a channel: nobody can move
package cache

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	cases := map[string]string{"A": "a"}
	results := make(chan string)
	for in, want := range cases {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			got := strings.ToLower(in)
			if got != want {
				t.Errorf("got %q want %q", got, want)
			}
			results <- got
		})
	}
	for range cases {
		<-results // BUG: parallel subtests only start after this function returns
	}
}
