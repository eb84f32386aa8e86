// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (etcd wait.Wait-style) requests register an id in a map of reply channels; the applier
//   triggers the id by sending on the registered channel; the requester gives up after
//   time.After, and since the registered channel is unbuffered the applier blocks for ever
//   (holding nothing, but leaked)

package main

import (
	"fmt"
	"sync"
	"time"
)

type waitRegistry struct {
	mu sync.Mutex
	m  map[uint64]chan string
}

func (w *waitRegistry) Register(id uint64) <-chan string {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := make(chan string) // BUG: unbuffered
	w.m[id] = ch
	return ch
}

func (w *waitRegistry) Trigger(id uint64, x string) {
	w.mu.Lock()
	ch := w.m[id]
	delete(w.m, id)
	w.mu.Unlock()
	if ch != nil {
		ch <- x
		close(ch)
	}
}

func main() {
	w := &waitRegistry{m: make(map[uint64]chan string)}
	ch := w.Register(7)
	go w.Trigger(7, "applied")
	select {
	case r := <-ch:
		fmt.Println(r)
	case <-time.After(time.Millisecond):
		fmt.Println("request timed out")
	}
}
