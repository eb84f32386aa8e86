// want: partial-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: WithCancelCause stops the producer; the consumer stops after a few values while a late second producer is blocked sending without a select

package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan int)
	go func() {
		for i := 0; ; i++ {
			select {
			case ch <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		time.Sleep(time.Millisecond) // a late straggler
		ch <- 100 // no select: blocks for ever once the consumer is gone
	}()
	for v := range ch {
		if v >= 3 {
			cancel(errors.New("enough"))
			break
		}
	}
	fmt.Println(context.Cause(ctx))
}
