// want: ok
// source: written for chanfuzz as a probe (round 13, iter.Pull; run and confirmed, see docs/gocheck-report.md)
// what: the fix: stop ends the sequence (its yield returns false), whose deferred release
//   runs before stop returns

package main

import (
	"fmt"
	"iter"
)

type handle struct {
	lines    []string
	released chan string
}

func (h *handle) Lines() iter.Seq[string] {
	return func(yield func(string) bool) {
		defer func() { h.released <- "released" }()
		for _, l := range h.lines {
			if !yield(l) {
				return
			}
		}
	}
}

func main() {
	h := &handle{lines: []string{"a", "b", "c"}, released: make(chan string, 1)}
	next, stop := iter.Pull(h.Lines())
	for i := 0; i < 2; i++ {
		l, ok := next()
		fmt.Println(l, ok)
	}
	stop()
	fmt.Println(<-h.released)
}
