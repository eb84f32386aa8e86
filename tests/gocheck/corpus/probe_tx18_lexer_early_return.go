// want: partial-deadlock
// source: a table-driven test of a streaming parser whose error branch returns early, written for this set
// what: the wantErr branch returns from the subtest before close(in), so the
//   parser goroutine started by the subtest stays blocked ranging over in.

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
			close(in)
			if _, ok := <-out; ok {
				t.Fatal("out not closed after in closed")
			}
		})
	}
}
