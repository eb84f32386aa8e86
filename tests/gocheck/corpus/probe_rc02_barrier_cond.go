// want: ok
// source: Rosetta Code style barrier ('Checkpoint synchronization') built on sync.Cond
// what: a reusable barrier with a generation counter; waiters loop on Wait until the generation
//   changes and the last arrival Broadcasts; three workers run four phases.
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
		b.cond.Broadcast()
		return
	}
	for gen == b.gen {
		b.cond.Wait()
	}
}

func main() {
	const workers, phases = 3, 4
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
