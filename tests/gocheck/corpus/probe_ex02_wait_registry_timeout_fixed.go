// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ex02: the registered reply channel has capacity 1, so Trigger never
//   blocks even if the requester timed out

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
	ch := make(chan string, 1)
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
