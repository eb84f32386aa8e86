// want: ok
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fixed version of rk01: internalClose runs its close through a sync.Once, so whichever
//   shutdown path comes first closes c.closed and the other one only logs

package main

import (
	"errors"
	"fmt"
	"sync"
)

type conn struct {
	inbox     chan string
	closed    chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

func newConn() *conn {
	return &conn{inbox: make(chan string, 2), closed: make(chan struct{})}
}

func (c *conn) start() {
	c.wg.Add(1)
	go c.readerLoop()
}

func (c *conn) readerLoop() {
	defer c.wg.Done()
	for {
		select {
		case msg := <-c.inbox:
			if msg == "bad" {
				c.internalClose(errors.New("protocol error"))
				return
			}
			fmt.Println("recv", msg)
		case <-c.closed:
			return
		}
	}
}

func (c *conn) internalClose(err error) {
	fmt.Println("closing:", err)
	c.closeOnce.Do(func() {
		close(c.closed)
	})
}

func (c *conn) Close() {
	c.internalClose(errors.New("closed by user"))
	c.wg.Wait()
}

func main() {
	c := newConn()
	c.start()
	c.inbox <- "hello"
	c.inbox <- "bad"
	c.Close()
}
