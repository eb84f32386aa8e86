// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of config hot-reload: an atomic.Pointer to the current generation, whose changed channel is closed on swap
// what: watchers load the current generation and wait on its changed channel; the reloader swaps
//   in a new generation and closes the old one's channel, waking every watcher of it
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type generation struct {
	version int
	changed chan struct{}
}

func main() {
	var cur atomic.Pointer[generation]
	cur.Store(&generation{version: 1, changed: make(chan struct{})})
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		g := cur.Load()
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-g.changed
			fmt.Println("saw version", cur.Load().version)
		}()
	}
	old := cur.Swap(&generation{version: 2, changed: make(chan struct{})})
	close(old.changed)
	wg.Wait()
}
