// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb18: announce() copies the items under the read lock and sends them
//   after releasing it

package main

import (
	"fmt"
	"sync"
)

type registry struct {
	mu      sync.RWMutex
	items   []string
	updates chan string
}

func (r *registry) announce() {
	r.mu.RLock()
	snapshot := make([]string, len(r.items))
	copy(snapshot, r.items)
	r.mu.RUnlock()
	for _, it := range snapshot {
		r.updates <- it
	}
}

func (r *registry) add(it string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, it)
}

func main() {
	r := &registry{items: []string{"a", "b"}, updates: make(chan string)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		first := <-r.updates
		r.add(first + "-ack")
		second := <-r.updates
		fmt.Println(first, second)
	}()
	r.announce()
	wg.Wait()
}
