// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb09: Close() releases cc.mu before waiting for the goroutine

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
	close(cc.closing)
	cc.mu.Unlock()
	<-cc.done
	return nil
}

func main() {
	cc := &clientConn{closing: make(chan struct{}), done: make(chan struct{})}
	go cc.resetTransport()
	if err := cc.Close(); err != nil {
		fmt.Println(err)
	}
	cc.mu.Lock()
	fmt.Println(cc.state)
	cc.mu.Unlock()
}
