// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (kubernetes-style) announce() holds the registry's read lock while sending each item on
//   an unbuffered updates channel; the consumer, after the first item, calls add(), which
//   needs the write lock, so announce blocks on its second send and the consumer on Lock

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
	defer r.mu.RUnlock()
	for _, it := range r.items {
		r.updates <- it // BUG: blocking send under the read lock
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
