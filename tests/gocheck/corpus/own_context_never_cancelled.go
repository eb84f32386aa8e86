// want: global-deadlock
// source: written for this corpus
// what: main waits for the worker, which waits for a cancellation that never comes (the cancel
//   function is only deferred)

package main

import (
	"context"
	"fmt"
)

func worker(ctx context.Context, done chan<- struct{}) {
	<-ctx.Done()
	fmt.Println("cancelled")
	close(done)
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go worker(ctx, done)
	<-done
}
