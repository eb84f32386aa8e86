// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (kubernetes-style) three goroutines wait at a gate built on sync.Cond; Open() sets the
//   flag and calls Signal instead of Broadcast, so when more than one waiter is already
//   waiting only one wakes up and main's wg.Wait blocks with the others (interleaving-dependent)

package main

import (
	"fmt"
	"sync"
)

type gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

func newGate() *gate {
	g := &gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) Wait() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.open {
		g.cond.Wait()
	}
}

func (g *gate) Open() {
	g.mu.Lock()
	g.open = true
	g.mu.Unlock()
	g.cond.Signal() // BUG: wakes only one waiter
}

func main() {
	g := newGate()
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Wait()
		}()
	}
	g.Open()
	wg.Wait()
	fmt.Println("all through")
}
