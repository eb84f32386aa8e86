// want: channel-safety
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on generic pipeline helpers (ParallelMap[In, Out] stages in lo/conc-style libraries)
// what: every worker of ParallelMap runs `defer close(out)`, so when the second worker finishes
//   it closes the already-closed output channel (or a slower worker sends on it): a
//   close-of-closed / send-on-closed panic.

package main

import "fmt"

type Stage[In, Out any] func(<-chan In) <-chan Out

func Source[T any](items ...T) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		for _, it := range items {
			out <- it
		}
	}()
	return out
}

func ParallelMap[In, Out any](workers int, f func(In) Out) Stage[In, Out] {
	return func(in <-chan In) <-chan Out {
		out := make(chan Out)
		for range workers {
			go func() {
				defer close(out) // BUG: each worker closes the shared output
				for v := range in {
					out <- f(v)
				}
			}()
		}
		return out
	}
}

type order struct {
	id    int
	qty   int
	price int
}

func main() {
	total := ParallelMap(2, func(o order) int { return o.qty * o.price })
	sum := 0
	for v := range total(Source(order{1, 2, 10}, order{2, 1, 5}, order{3, 4, 3})) {
		sum += v
	}
	fmt.Println("revenue", sum)
}
