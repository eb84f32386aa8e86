// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (grpc-style) ClientConn.Close() takes cc.mu with a deferred Unlock, closes the closing
//   channel and waits for the resetTransport goroutine to finish; that goroutine needs cc.mu
//   to record its state before it can return (lock held while waiting)

package main

import (
	"fmt"
	"sync"
	"time"
)

type clientConn struct {
	mu      sync.Mutex
	state   string
	closing chan struct{}
	done    chan struct{}
}

func (cc *clientConn) resetTransport() {
	defer close(cc.done)
	for {
		select {
		case <-cc.closing:
			cc.mu.Lock()
			cc.state = "shutdown"
			cc.mu.Unlock()
			return
		case <-time.After(time.Millisecond):
			cc.mu.Lock()
			cc.state = "ready"
			cc.mu.Unlock()
		}
	}
}

func (cc *clientConn) Close() error {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	close(cc.closing)
	<-cc.done // BUG: waits with cc.mu held
	return nil
}

func main() {
	cc := &clientConn{closing: make(chan struct{}), done: make(chan struct{})}
	go cc.resetTransport()
	if err := cc.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(cc.state)
}
