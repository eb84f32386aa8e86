// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/kubernetes/5316, the fix of kubernetes/kubernetes PR 5316 (buffered channels); rewritten as package main
// what: the result channels have room for one value each, so the worker never blocks when
//   the timeout wins

package main

import (
	"errors"
	"time"
)

func finishRequest(timeout time.Duration, fn func() error) {
	ch := make(chan bool, 1)
	errCh := make(chan error, 1)
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
