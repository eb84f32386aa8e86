// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ex07: the informer's context derives from the caller's ctx, and main
//   waits for the informer to exit after cancelling

package main

import (
	"context"
	"fmt"
)

type informer struct {
	events chan string
}

func startInformer(ctx context.Context, inf *informer, started chan<- struct{}, stopped chan<- struct{}) {
	ictx, cancel := context.WithCancel(ctx)
	go func() {
		defer close(stopped)
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
	stopped := make(chan struct{})
	startInformer(ctx, inf, started, stopped)
	<-started
	inf.events <- "add"
	cancel()
	<-stopped
}
