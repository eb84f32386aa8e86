// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/kubernetes/5316 (kubernetes/kubernetes PR 5316); rewritten as package main
// what: finishRequest waits for the worker's result or a timeout; when the timeout wins, the
//   worker's later send on the unbuffered ch or errCh blocks for ever (interleaving-dependent)

package main

import (
	"errors"
	"time"
)

func finishRequest(timeout time.Duration, fn func() error) {
	ch := make(chan bool)
	errCh := make(chan error)
	go func() {
		if err := fn(); err != nil {
			errCh <- err
		} else {
			ch <- true
		}
	}()
	select {
	case <-ch:
	case <-errCh:
	case <-time.After(timeout):
	}
}

func main() {
	n := 0
	fn := func() error {
		time.Sleep(2 * time.Millisecond)
		n++
		if n%2 == 0 {
			return errors.New("error")
		}
		return nil
	}
	finishRequest(time.Millisecond, fn)
}
