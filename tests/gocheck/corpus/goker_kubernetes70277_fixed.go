// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/kubernetes/70277 the fix of kubernetes/kubernetes PR 70277 (WaitFor cancels its own context); rewritten as package main
// what: WaitFor() hands the poller the Done channel of a context derived from the caller's
//   channel and cancels it when it returns, so the poller stops and main's wait ends

package main

import (
	"context"
	"time"
)

type WaitFunc func(done <-chan struct{}) <-chan struct{}

func WaitFor(wait WaitFunc, fn func() bool, done <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-done:
			cancel()
		case <-ctx.Done():
		}
	}()
	c := wait(ctx.Done())
	for {
		_, open := <-c
		if fn() || !open {
			return
		}
	}
}

func poller(interval, timeout time.Duration) WaitFunc {
	return func(done <-chan struct{}) <-chan struct{} {
		ch := make(chan struct{})
		go func() {
			defer close(ch)
			tick := time.NewTicker(interval)
			defer tick.Stop()
			after := time.After(timeout)
			for {
				select {
				case <-tick.C:
					select {
					case ch <- struct{}{}:
					default:
					}
				case <-after:
					return
				case <-done:
					return
				}
			}
		}()
		return ch
	}
}

func main() {
	stopCh := make(chan struct{})
	defer close(stopCh)
	waitFunc := poller(time.Millisecond, 50*time.Millisecond)
	var doneCh <-chan struct{}
	WaitFor(func(done <-chan struct{}) <-chan struct{} {
		doneCh = done
		return waitFunc(done)
	}, func() bool { return true }, stopCh)
	<-doneCh
}
