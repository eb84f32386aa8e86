// want: global-deadlock
// source: written for chanfuzz as a probe (round 13, iter.Pull; run and confirmed, see docs/gocheck-report.md)
// what: the sequence releases the handle (a send on released) only when it returns; main
//   takes two lines with next but never calls stop, so the sequence stays parked in
//   yield and main waits for the release for ever

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
	_ = stop
	for i := 0; i < 2; i++ {
		l, ok := next()
		fmt.Println(l, ok)
	}
	fmt.Println(<-h.released)
}
