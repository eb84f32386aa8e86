// want: channel-safety
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (istio-style) a hub keeps a map of subscriber channels; Unsubscribe closes the
//   subscriber's channel after removing it, but Broadcast copied the subscriber list earlier
//   and sends outside the lock, so it can send on the just-closed channel

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
	ch := h.subs[name]
	delete(h.subs, name)
	h.mu.Unlock()
	close(ch)
}

func (h *hub) Broadcast(msg string) {
	h.mu.Lock()
	targets := make([]chan string, 0, len(h.subs))
	for _, ch := range h.subs {
		targets = append(targets, ch)
	}
	h.mu.Unlock()
	for _, ch := range targets {
		ch <- msg // BUG: the channel may have been closed by Unsubscribe meanwhile
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
