// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on small value-type handles (struct with channel and *WaitGroup fields) passed by value
// what: Handle is copied into each worker by value, but its fields are a channel and a pointer to
//   one WaitGroup, so the copies share them (unlike an embedded WaitGroup): every Done reaches the
//   counter main waits on, and the results channel is closed once after the last send.

package main

import (
	"fmt"
	"sync"
)

type Handle[T any] struct {
	out chan T
	wg  *sync.WaitGroup
}

func (h Handle[T]) Emit(v T) { h.out <- v }
func (h Handle[T]) Finish()  { h.wg.Done() }

func spawn[T any](h Handle[T], work func() T) {
	h.wg.Add(1)
	go func(h Handle[T]) {
		defer h.Finish()
		h.Emit(work())
	}(h)
}

func main() {
	h := Handle[string]{out: make(chan string), wg: &sync.WaitGroup{}}
	for _, name := range []string{"x", "y", "z"} {
		spawn(h, func() string { return name + name })
	}
	go func(h Handle[string]) {
		h.wg.Wait()
		close(h.out)
	}(h)
	n := 0
	for range h.out {
		n++
	}
	fmt.Println(n)
}
