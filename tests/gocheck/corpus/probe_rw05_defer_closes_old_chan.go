// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in the manner of real code bases (2026-12-01, third round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: reconnecting client: readLoop's `defer close(c.msgs)` evaluates c.msgs at defer time, so
//   the channel made on reconnect is never closed

package main

import (
	"fmt"
	"sync"
)

type Client struct {
	mu   sync.Mutex
	msgs chan string
}

func (c *Client) readLoop(reconnect <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	defer close(c.msgs) // BUG: closes the channel current at this point
	c.msgs <- "hello"
	<-reconnect
	c.mu.Lock()
	c.msgs = make(chan string, 1) // new session
	c.mu.Unlock()
}

func (c *Client) Messages() <-chan string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.msgs
}

func main() {
	c := &Client{msgs: make(chan string, 1)}
	reconnect := make(chan struct{})
	done := make(chan struct{})
	go c.readLoop(reconnect, done)
	fmt.Println(<-c.Messages())
	close(reconnect)
	<-done
	go func() {
		for m := range c.Messages() { // waits for a close that never comes
			fmt.Println(m)
		}
	}()
	fmt.Println("client closed")
}
