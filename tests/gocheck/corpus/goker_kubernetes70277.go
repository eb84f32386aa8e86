// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/kubernetes/70277 (kubernetes/kubernetes PR 70277); rewritten as package main
// what: WaitFor() returns as soon as the condition holds, but main then waits on the done channel
//   it handed to the poller, which is only closed by main's own deferred close: once the poller
//   times out (50 ms here, 20 s in the kernel) every goroutine is blocked

package main

import "time"

type WaitFunc func(done <-chan struct{}) <-chan struct{}

func WaitFor(wait WaitFunc, fn func() bool, done <-chan struct{}) {
	c := wait(done)
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
