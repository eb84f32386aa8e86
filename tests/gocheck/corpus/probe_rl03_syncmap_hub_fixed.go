// want: ok
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of probe_rl03_syncmap_hub: Shutdown removes each entry with LoadAndDelete
//   inside Range and closes the channel only if it won the entry, so the writers' deferred
//   Unregister finds nothing and every send channel is closed exactly once

package main

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// conn is one client connection; send queues outgoing frames for its writer.
type conn struct {
	id   int64
	send chan string
	out  strings.Builder // stands in for the socket
}

// Hub tracks the live connections.
type Hub struct {
	conns  sync.Map // int64 -> *conn
	nextID atomic.Int64
}

// Register adds a new connection to the hub.
func (h *Hub) Register() *conn {
	c := &conn{id: h.nextID.Add(1), send: make(chan string, 4)}
	h.conns.Store(c.id, c)
	return c
}

// Unregister removes c and closes its send channel, if it is still registered.
func (h *Hub) Unregister(c *conn) {
	if v, ok := h.conns.LoadAndDelete(c.id); ok {
		close(v.(*conn).send)
	}
}

// Broadcast queues msg on every registered connection.
func (h *Hub) Broadcast(msg string) {
	h.conns.Range(func(_, v any) bool {
		v.(*conn).send <- msg
		return true
	})
}

// Shutdown unregisters every connection so the writers finish.
func (h *Hub) Shutdown() {
	h.conns.Range(func(k, _ any) bool {
		if v, ok := h.conns.LoadAndDelete(k); ok {
			close(v.(*conn).send)
		}
		return true
	})
}

// writePump copies queued frames to the socket until the send channel is closed.
func (h *Hub) writePump(c *conn, wg *sync.WaitGroup) {
	defer wg.Done()
	defer h.Unregister(c)
	for msg := range c.send {
		c.out.WriteString(msg)
		c.out.WriteByte('\n')
	}
}

func main() {
	var h Hub
	var wg sync.WaitGroup
	var conns []*conn
	for range 3 {
		c := h.Register()
		conns = append(conns, c)
		wg.Add(1)
		go h.writePump(c, &wg)
	}
	for _, m := range []string{"build started", "tests passed", "deploy done"} {
		h.Broadcast(m)
	}
	h.Shutdown()
	wg.Wait()
	for _, c := range conns {
		fmt.Printf("conn %d got %d bytes\n", c.id, c.out.Len())
	}
}
