// want: ok
// source: written for this corpus
// what: a worker loops until its context is cancelled; main cancels and waits for it

package main

import (
	"context"
	"fmt"
)

func worker(ctx context.Context, work <-chan int, done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case <-ctx.Done():
			return
		case w := <-work:
			fmt.Println("work", w)
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	work := make(chan int)
	done := make(chan struct{})
	go worker(ctx, work, done)
	work <- 1
	work <- 2
	cancel()
	<-done
}
