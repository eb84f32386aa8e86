// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of the context.AfterFunc documentation example (waiting on a sync.Cond with a context)
// what: waitOnCond registers an AfterFunc that broadcasts the cond when ctx is done, so the
//   waiter wakes either because the condition became true or because the context was cancelled
package main

import (
	"context"
	"fmt"
	"sync"
)

func waitOnCond(ctx context.Context, cond *sync.Cond, conditionMet func() bool) error {
	stopf := context.AfterFunc(ctx, func() {
		cond.L.Lock()
		defer cond.L.Unlock()
		cond.Broadcast()
	})
	defer stopf()
	for !conditionMet() {
		cond.Wait()
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

func main() {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	ready := false
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		mu.Lock()
		defer mu.Unlock()
		done <- waitOnCond(ctx, cond, func() bool { return ready })
	}()
	cancel()
	fmt.Println("wait:", <-done)
}
