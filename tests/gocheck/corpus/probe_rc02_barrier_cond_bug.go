// want: global-deadlock
// source: Rosetta Code style barrier built on sync.Cond, with Signal where Broadcast is needed
// what: the last worker to arrive wakes only one waiter with Signal; the other waiter sleeps in
//   cond.Wait for ever, the woken ones stall at the next phase, and main blocks in wg.Wait.
package main

import (
	"fmt"
	"sync"
	"time"
)

type barrier struct {
	mu    sync.Mutex
	cond  *sync.Cond
	n     int
	count int
	gen   int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	gen := b.gen
	b.count++
	if b.count == b.n {
		b.count = 0
		b.gen++
		b.cond.Signal() // should be Broadcast
		return
	}
	for gen == b.gen {
		b.cond.Wait()
	}
}

func main() {
	const workers, phases = 3, 3
	b := newBarrier(workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for p := 0; p < phases; p++ {
				time.Sleep(time.Duration(w) * 300 * time.Microsecond)
				fmt.Printf("worker %d finished phase %d\n", w, p)
				b.wait()
			}
		}(w)
	}
	wg.Wait()
	fmt.Println("all phases done")
}
