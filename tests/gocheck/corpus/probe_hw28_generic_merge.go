// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a generic variadic fan-in Merge[T](cs ...<-chan T)
// what: Merge starts one forwarder per input channel and closes the output once all have
//   finished; main ranges over the merged channel until it is closed
package main

import (
	"fmt"
	"sync"
)

func Merge[T any](cs ...<-chan T) <-chan T {
	out := make(chan T)
	var wg sync.WaitGroup
	wg.Add(len(cs))
	for _, c := range cs {
		go func(c <-chan T) {
			defer wg.Done()
			for v := range c {
				out <- v
			}
		}(c)
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

func emit[T any](vs ...T) <-chan T {
	c := make(chan T)
	go func() {
		defer close(c)
		for _, v := range vs {
			c <- v
		}
	}()
	return c
}

func main() {
	n := 0
	for s := range Merge(emit("a", "b"), emit("c")) {
		n += len(s)
	}
	fmt.Println(n)
}
