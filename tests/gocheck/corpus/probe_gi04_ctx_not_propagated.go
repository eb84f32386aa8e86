// want: partial-deadlock
// source: "context cancellation not propagated to worker" bug pattern from Go issue trackers
// what: the watcher is started with context.Background() instead of ctx; after the consumer is
//   cancelled and stops reading, the watcher blocks for ever sending on the unbuffered channel.
package main

import (
	"context"
	"fmt"
	"time"
)

func watch(ctx context.Context, events chan<- string) {
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Millisecond):
		}
		events <- fmt.Sprintf("event %d", i)
	}
}

func consume(ctx context.Context) {
	events := make(chan string)
	go watch(context.Background(), events) // bug: should be ctx
	for {
		select {
		case e := <-events:
			fmt.Println("got", e)
		case <-ctx.Done():
			fmt.Println("consumer:", ctx.Err())
			return
		}
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	consume(ctx)
	time.Sleep(5 * time.Millisecond) // let other shutdown work finish
}
