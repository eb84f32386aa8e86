// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on nats.go Conn.kickFlusher / flusher goroutine
// what: Publish holds nc.mu while doing a blocking send on the unbuffered fch; the flusher, having
//
//	taken the previous kick, waits for nc.mu to flush. A second Publish then blocks on fch while
//	holding nc.mu and the flusher blocks on nc.mu: main and the flusher are both stuck.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
)

var errConnClosed = errors.New("nats: connection closed")

type Conn struct {
	mu      sync.Mutex
	pending bytes.Buffer
	out     []string
	fch     chan struct{}
	closed  bool
	wg      sync.WaitGroup
}

func Connect() *Conn {
	nc := &Conn{fch: make(chan struct{})}
	nc.wg.Add(1)
	go nc.flusher()
	return nc
}

func (nc *Conn) kickFlusher() {
	nc.fch <- struct{}{} // BUG: blocking send, called with nc.mu held
}

func (nc *Conn) Publish(subj string, data []byte) error {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	if nc.closed {
		return errConnClosed
	}
	fmt.Fprintf(&nc.pending, "PUB %s %d\r\n%s\r\n", subj, len(data), data)
	nc.kickFlusher()
	return nil
}

func (nc *Conn) flusher() {
	defer nc.wg.Done()
	for {
		if _, ok := <-nc.fch; !ok {
			return
		}
		nc.mu.Lock()
		if nc.closed {
			nc.mu.Unlock()
			return
		}
		if nc.pending.Len() > 0 {
			nc.out = append(nc.out, nc.pending.String())
			nc.pending.Reset()
		}
		nc.mu.Unlock()
	}
}

func (nc *Conn) Close() {
	nc.mu.Lock()
	if nc.closed {
		nc.mu.Unlock()
		return
	}
	nc.closed = true
	close(nc.fch)
	nc.mu.Unlock()
	nc.wg.Wait()
}

func main() {
	nc := Connect()
	for i := 0; i < 3; i++ {
		if err := nc.Publish("orders.new", []byte(fmt.Sprintf("order-%d", i))); err != nil {
			fmt.Println("publish:", err)
		}
	}
	nc.Close()
	fmt.Println("flushed batches:", len(nc.out))
}
