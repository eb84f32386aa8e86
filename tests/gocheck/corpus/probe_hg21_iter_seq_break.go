// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on channel-backed iter.Seq[T] adapters (Go 1.23 range-over-func)
// what: FromProducer starts a goroutine that feeds an unbuffered channel and yields from it; when
//   the caller's range loop breaks early, yield returns false and the Seq returns, but the
//   producer goroutine stays blocked on its next send for ever.

package main

import (
	"fmt"
	"iter"
)

func FromProducer[T any](produce func(emit func(T))) iter.Seq[T] {
	return func(yield func(T) bool) {
		ch := make(chan T)
		go func() {
			defer close(ch)
			produce(func(v T) { ch <- v })
		}()
		for v := range ch {
			if !yield(v) {
				return // BUG: producer still sending on ch
			}
		}
	}
}

func firstOver(limit int, xs []int) (int, bool) {
	seq := FromProducer(func(emit func(int)) {
		for _, x := range xs {
			emit(x * 10)
		}
	})
	for v := range seq {
		if v > limit {
			return v, true
		}
	}
	return 0, false
}

func main() {
	fmt.Println(firstOver(15, []int{1, 2, 3, 4}))
}
