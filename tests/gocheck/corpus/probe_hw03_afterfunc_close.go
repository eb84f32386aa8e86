// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a connection that closes itself when its context ends (context.AfterFunc)
// what: context.AfterFunc closes conn.closed when ctx is cancelled, and Close() closes it too;
//   Close ignores stop()'s result, so when the context was cancelled first the channel is
//   closed twice
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
	c.stop()        // BUG: false means the AfterFunc already ran (or is running)
	close(c.closed)
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	c := dial(ctx)
	cancel()
	time.Sleep(time.Millisecond)
	c.Close()
	fmt.Println("closed")
}
