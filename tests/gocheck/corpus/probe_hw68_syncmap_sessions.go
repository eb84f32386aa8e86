// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a websocket hub keeping per-session channels in a sync.Map
// what: both the idle reaper and the client's disconnect do Load, close, Delete as three steps;
//   when they race on the same session both Load it before either Deletes, and the channel is
//   closed twice
package main

import (
	"fmt"
	"sync"
	"time"
)

type Hub struct{ sessions sync.Map }

func (h *Hub) drop(id string) {
	if v, ok := h.sessions.Load(id); ok {
		time.Sleep(time.Millisecond) // e.g. writing a close frame
		close(v.(chan []byte))       // BUG: not atomic with Load/Delete
		h.sessions.Delete(id)
	}
}

func main() {
	h := &Hub{}
	h.sessions.Store("s1", make(chan []byte, 4))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); h.drop("s1") }() // idle reaper
	go func() { defer wg.Done(); h.drop("s1") }() // client disconnect
	wg.Wait()
	fmt.Println("dropped")
}
