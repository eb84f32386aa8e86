// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a websocket hub keeping per-session channels in a sync.Map
// what: drop uses LoadAndDelete, so exactly one of the racing callers gets the channel and
//   closes it
package main

import (
	"fmt"
	"sync"
	"time"
)

type Hub struct{ sessions sync.Map }

func (h *Hub) drop(id string) {
	if v, ok := h.sessions.LoadAndDelete(id); ok {
		time.Sleep(time.Millisecond)
		close(v.(chan []byte))
	}
}

func main() {
	h := &Hub{}
	h.sessions.Store("s1", make(chan []byte, 4))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); h.drop("s1") }()
	go func() { defer wg.Done(); h.drop("s1") }()
	wg.Wait()
	fmt.Println("dropped")
}
