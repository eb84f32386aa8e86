// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on hand-rolled errgroup clones (copylocks, harmless instance)
// what: Wait still has a value receiver, but it is only called after main has received one
//   result per worker and each worker's Done precedes its send, so the copied counter is
//   already zero and the copy's Wait returns at once: no deadlock in any interleaving.

package main

import (
	"fmt"
	"sync"
)

type Group struct {
	wg sync.WaitGroup
}

func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		f()
	}()
}

func (g *Group) done() { g.wg.Done() }

func (g Group) Wait() { g.wg.Wait() }

func main() {
	var g Group
	res := make(chan int)
	items := []int{3, 4}
	for _, it := range items {
		g.Go(func() {
			v := it * it
			g.done()
			res <- v
		})
	}
	sum := 0
	for range len(items) {
		sum += <-res
	}
	g.Wait()
	fmt.Println(sum)
}
