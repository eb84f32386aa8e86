// want: ok
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on nats.go Conn.kickFlusher / flusher goroutine
// what: fixed as nats.go does: fch has a buffer of one and kickFlusher sends with select/default,
//
//	so Publish never waits on the flusher while holding nc.mu; a pending kick is enough.
//	Close closes fch under nc.mu, so no kick can follow the close.
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
	nc := &Conn{fch: make(chan struct{}, 1)}
	nc.wg.Add(1)
	go nc.flusher()
	return nc
}

func (nc *Conn) kickFlusher() {
	select {
	case nc.fch <- struct{}{}:
	default: // a kick is already pending
	}
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
