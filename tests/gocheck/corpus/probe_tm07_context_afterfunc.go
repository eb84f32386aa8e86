// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: context.AfterFunc closes a connection's channel once the request context is cancelled

package main

import (
	"context"
	"fmt"
)

type conn struct {
	closed chan struct{}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{closed: make(chan struct{})}
	stop := context.AfterFunc(ctx, func() {
		close(c.closed)
	})
	_ = stop
	go func() {
		cancel()
	}()
	<-c.closed
	fmt.Println("conn closed after cancel")
}
