// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a connection that closes itself when its context ends (context.AfterFunc)
// what: Close closes the channel only when stop() reports it kept the AfterFunc from running;
//   otherwise it waits for the AfterFunc's close
package main

import (
	"context"
	"fmt"
	"time"
)

type conn struct {
	closed chan struct{}
	stop   func() bool
}

func dial(ctx context.Context) *conn {
	c := &conn{closed: make(chan struct{})}
	c.stop = context.AfterFunc(ctx, func() { close(c.closed) })
	return c
}

func (c *conn) Close() {
	if c.stop() {
		close(c.closed)
		return
	}
	<-c.closed
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	c := dial(ctx)
	cancel()
	time.Sleep(time.Millisecond)
	c.Close()
	fmt.Println("closed")
}
