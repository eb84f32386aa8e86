// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Atomic Counters" and "Mutexes"
// what: fifty goroutines each add 100 to an atomic.Uint64 ops counter; then a Container whose
//   mutex guards a map of counters is incremented by three goroutines (a: 1000, a: 1000, b: 1000);
//   main waits on a WaitGroup after each phase and prints the totals.

package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type Container struct {
	mu       sync.Mutex
	counters map[string]int
}

func (c *Container) inc(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counters[name]++
}

func main() {
	var ops atomic.Uint64
	var wg sync.WaitGroup

	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			for c := 0; c < 100; c++ {
				ops.Add(1)
			}
			wg.Done()
		}()
	}
	wg.Wait()
	fmt.Println("ops:", ops.Load())

	c := Container{
		counters: map[string]int{"a": 0, "b": 0},
	}

	doIncrement := func(name string, n int) {
		for i := 0; i < n; i++ {
			c.inc(name)
		}
		wg.Done()
	}

	wg.Add(3)
	go doIncrement("a", 1000)
	go doIncrement("a", 1000)
	go doIncrement("b", 1000)

	wg.Wait()
	fmt.Println(c.counters)
}
