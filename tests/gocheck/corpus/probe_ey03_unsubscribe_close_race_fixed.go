// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ey03: Broadcast sends while holding the hub lock (the channels are
//   buffered, so the sends do not block), and Unsubscribe closes only after removing the
//   channel under the same lock

package main

import (
	"fmt"
	"sync"
)

type hub struct {
	mu   sync.Mutex
	subs map[string]chan string
}

func (h *hub) Subscribe(name string) chan string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan string, 4)
	h.subs[name] = ch
	return ch
}

func (h *hub) Unsubscribe(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := h.subs[name]
	delete(h.subs, name)
	close(ch)
}

func (h *hub) Broadcast(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ch := range h.subs {
		ch <- msg
	}
}

func main() {
	h := &hub{subs: make(map[string]chan string)}
	ch := h.Subscribe("a")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.Broadcast("hello")
	}()
	h.Unsubscribe("a")
	for m := range ch {
		fmt.Println(m)
	}
	wg.Wait()
}
