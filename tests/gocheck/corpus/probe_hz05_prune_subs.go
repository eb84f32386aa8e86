// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a broadcaster that prunes slow subscribers with slices.DeleteFunc
// what: broadcast does a non-blocking send to each subscriber; a subscriber whose buffer is full
//   is closed and removed with slices.DeleteFunc; the reader drains its channel until closed
package main

import (
	"fmt"
	"slices"
)

type sub struct {
	ch   chan int
	slow bool
}

func broadcast(subs []*sub, v int) []*sub {
	return slices.DeleteFunc(subs, func(s *sub) bool {
		select {
		case s.ch <- v:
			return false
		default:
			close(s.ch)
			return true
		}
	})
}

func main() {
	subs := []*sub{{ch: make(chan int, 1)}, {ch: make(chan int, 2)}}
	for v := 0; v < 2; v++ {
		subs = broadcast(subs, v)
	}
	fmt.Println(len(subs), "subscribers left")
	for _, s := range subs {
		close(s.ch)
	}
}
