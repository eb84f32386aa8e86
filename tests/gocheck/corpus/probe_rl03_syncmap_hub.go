// want: channel-safety
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a websocket-style hub keeps its connections in a sync.Map and broadcasts with Range;
//   Shutdown closes every send channel inside Range but leaves the entries in the map, so each
//   connection's writer, whose range loop ends on that close, runs its deferred Unregister,
//   finds its entry with LoadAndDelete and closes the channel a second time (close of closed channel)

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

// Shutdown closes every connection's send channel so the writers finish.
func (h *Hub) Shutdown() {
	h.conns.Range(func(_, v any) bool {
		close(v.(*conn).send) // BUG: the entry stays in the map for Unregister to find
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
