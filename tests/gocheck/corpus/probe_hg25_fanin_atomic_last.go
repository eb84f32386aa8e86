// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on FanIn[T] helpers where the last forwarder to finish closes the output (atomic refcount)
// what: each forwarder decrements an atomic.Int32 when its input is drained and only the one that
//   brings it to zero closes out; every send happens before that forwarder's decrement, so the
//   close comes after all sends and happens exactly once: ok in every interleaving.

package main

import (
	"fmt"
	"sync/atomic"
)

func FanIn[T any](ins ...<-chan T) <-chan T {
	out := make(chan T)
	var live atomic.Int32
	live.Store(int32(len(ins)))
	for _, in := range ins {
		go func() {
			for v := range in {
				out <- v
			}
			if live.Add(-1) == 0 {
				close(out)
			}
		}()
	}
	return out
}

func gen[T any](vs ...T) <-chan T {
	ch := make(chan T)
	go func() {
		defer close(ch)
		for _, v := range vs {
			ch <- v
		}
	}()
	return ch
}

func main() {
	n := 0
	for s := range FanIn(gen("a", "b"), gen("c"), gen[string]()) {
		n += len(s)
	}
	fmt.Println(n)
}
