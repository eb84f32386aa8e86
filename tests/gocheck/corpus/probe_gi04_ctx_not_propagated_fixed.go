// want: ok
// source: "context cancellation not propagated to worker" bug pattern, fixed
// what: the watcher gets the caller's ctx and selects on ctx.Done() around its send too; consume
//   waits for the watcher to exit before returning.
package main

import (
	"context"
	"fmt"
	"time"
)

func watch(ctx context.Context, events chan<- string, done chan<- struct{}) {
	defer close(done)
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Millisecond):
		}
		select {
		case events <- fmt.Sprintf("event %d", i):
		case <-ctx.Done():
			return
		}
	}
}

func consume(ctx context.Context) {
	events := make(chan string)
	done := make(chan struct{})
	go watch(ctx, events, done)
	defer func() { <-done }()
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
}
