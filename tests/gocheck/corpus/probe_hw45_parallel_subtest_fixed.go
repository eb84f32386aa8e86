// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a table test whose subtests call t.Parallel while the parent collects their results
// what: the parallel subtests run inside a group subtest; the parent's t.Run("group") returns
//   only after they all finished, and the results channel is buffered, so the parent can then
//   read every result
package cache

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	cases := map[string]string{"A": "a", "B": "b"}
	results := make(chan string, len(cases))
	t.Run("group", func(t *testing.T) {
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
	})
	for range cases {
		<-results
	}
}
