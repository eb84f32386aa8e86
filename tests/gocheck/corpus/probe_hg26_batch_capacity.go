// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on Batcher[T] goroutines that flush a trailing partial batch on close
// what: the consumer reads len(items)/size batches (integer division), but the batcher also
//   flushes the trailing partial batch (7 items, size 3: 3 batches, not 2) on the unbuffered out
//   channel, so the batcher goroutine is left blocked on that send when main returns.

package main

import "fmt"

type Batcher[T any] struct {
	in   chan T
	out  chan []T
	size int
}

func NewBatcher[T any](size int) *Batcher[T] {
	b := &Batcher[T]{in: make(chan T), out: make(chan []T), size: size}
	go b.run()
	return b
}

func (b *Batcher[T]) run() {
	defer close(b.out)
	buf := make([]T, 0, b.size)
	for v := range b.in {
		buf = append(buf, v)
		if len(buf) == b.size {
			b.out <- buf
			buf = make([]T, 0, b.size)
		}
	}
	if len(buf) > 0 {
		b.out <- buf
	}
}

func main() {
	items := []int{1, 2, 3, 4, 5, 6, 7}
	b := NewBatcher[int](3)
	go func() {
		defer close(b.in)
		for _, it := range items {
			b.in <- it
		}
	}()
	nb := len(items) / b.size // BUG: should round up (or range over b.out)
	for range nb {
		fmt.Println(<-b.out)
	}
}
