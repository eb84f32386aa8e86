// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a balancer that picks the least-loaded worker (slices.SortFunc + cmp.Compare)
// what: workers are sorted by pending load and each job goes to the first one's buffered
//   queue; all queues are closed afterwards and main waits for the workers to drain them
package main

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
)

type worker struct {
	id      int
	pending int
	queue   chan int
}

func main() {
	ws := []*worker{
		{id: 1, pending: 2, queue: make(chan int, 3)},
		{id: 2, pending: 0, queue: make(chan int, 3)},
	}
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range w.queue {
				_ = j
			}
		}()
	}
	for j := 0; j < 2; j++ {
		slices.SortFunc(ws, func(a, b *worker) int { return cmp.Compare(a.pending, b.pending) })
		ws[0].pending++
		ws[0].queue <- j
	}
	for _, w := range ws {
		close(w.queue)
	}
	wg.Wait()
	fmt.Println("dispatched")
}
