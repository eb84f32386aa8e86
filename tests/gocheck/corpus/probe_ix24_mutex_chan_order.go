// want: global-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a goroutine holds a mutex while sending on an unbuffered channel whose receiver first needs the same mutex

package main

import (
	"fmt"
	"sync"
)

type Hub struct {
	mu      sync.Mutex
	clients map[int]bool
	events  chan int
}

func (h *Hub) Add(id int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients[id] = true
	h.events <- id
}

func (h *Hub) run(done chan<- struct{}) {
	for id := range h.events {
		h.mu.Lock()
		fmt.Println("added", id, len(h.clients))
		h.mu.Unlock()
		if id == 1 {
			close(done)
			return
		}
	}
}

func main() {
	h := &Hub{clients: map[int]bool{}, events: make(chan int)}
	done := make(chan struct{})
	go h.run(done)
	go h.Add(0)
	h.Add(1)
	<-done
}
