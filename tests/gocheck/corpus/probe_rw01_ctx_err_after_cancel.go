// want: ok
// source: written for chanfuzz as a held-out probe in the manner of real code bases (2026-12-01, third round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: producer checks ctx.Err() after each acknowledged item; main cancels before
//   acknowledging, so the producer stops

package main

import (
	"context"
	"fmt"
)

func produce(ctx context.Context, out chan<- int, ack <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for i := 0; i < 3; i++ {
		out <- i
		<-ack
		if ctx.Err() != nil {
			return
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan int)
	ack := make(chan struct{})
	done := make(chan struct{})
	go produce(ctx, out, ack, done)
	first := <-out
	cancel()
	ack <- struct{}{}
	<-done
	fmt.Println("first", first)
}
