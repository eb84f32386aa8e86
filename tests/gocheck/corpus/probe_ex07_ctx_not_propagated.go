// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (kubernetes-style) startInformer() is given the caller's ctx but derives its own from
//   context.Background(), so cancelling the caller's context never reaches the informer
//   goroutine, which stays blocked in select on its own ctx.Done() and the event channel
//   after main cancels and returns (a leak)

package main

import (
	"context"
	"fmt"
)

type informer struct {
	events chan string
}

func startInformer(ctx context.Context, inf *informer, started chan<- struct{}) {
	ictx, cancel := context.WithCancel(context.Background()) // BUG: should derive from ctx
	go func() {
		defer cancel()
		close(started)
		for {
			select {
			case e := <-inf.events:
				fmt.Println("event", e)
			case <-ictx.Done():
				return
			}
		}
	}()
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	inf := &informer{events: make(chan string)}
	started := make(chan struct{})
	startInformer(ctx, inf, started)
	<-started
	inf.events <- "add"
	cancel()
}
