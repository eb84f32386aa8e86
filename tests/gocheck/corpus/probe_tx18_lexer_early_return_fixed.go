// want: ok
// source: a table-driven test of a streaming parser, fixed version, written for this set
// what: the subtest registers close(in) plus a drain of out with t.Cleanup right
//   after starting the parser, so every return path stops it.

package kv

import (
	"errors"
	"strings"
	"testing"
)

type Pair struct{ Key, Val string }

type Result struct {
	Pair Pair
	Err  error
}

var ErrSyntax = errors.New("syntax error")

// Parse turns "key=value" lines into pairs until in is closed.
func Parse(in <-chan string, out chan<- Result) {
	defer close(out)
	for line := range in {
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" {
			out <- Result{Err: ErrSyntax}
			continue
		}
		out <- Result{Pair: Pair{strings.TrimSpace(k), strings.TrimSpace(v)}}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		want    Pair
		wantErr bool
	}{
		{"simple", "a=1", Pair{"a", "1"}, false},
		{"spaces", " b = two ", Pair{"b", "two"}, false},
		{"no equals", "junk", Pair{}, true},
		{"empty key", "=3", Pair{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := make(chan string)
			out := make(chan Result)
			go Parse(in, out)
			t.Cleanup(func() {
				close(in)
				for range out {
				}
			})

			in <- tc.line
			r := <-out
			if tc.wantErr {
				if !errors.Is(r.Err, ErrSyntax) {
					t.Fatalf("err = %v, want ErrSyntax", r.Err)
				}
				return
			}
			if r.Err != nil || r.Pair != tc.want {
				t.Fatalf("got %+v, want %+v", r, tc.want)
			}
		})
	}
}
