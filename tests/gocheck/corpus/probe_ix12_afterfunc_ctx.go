// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: context.AfterFunc closes a connection-like resource when the context ends; stop is called on the normal path

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

type conn struct {
	once   sync.Once
	closed chan struct{}
}

func (c *conn) Close() { c.once.Do(func() { close(c.closed) }) }

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	c := &conn{closed: make(chan struct{})}
	stop := context.AfterFunc(ctx, c.Close)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-c.closed:
		case <-time.After(time.Millisecond):
		}
	}()
	<-done
	c.Close()
	fmt.Println("ok")
}
