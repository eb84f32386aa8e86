// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/4395, the fix of moby/moby PR 4395 (buffered result channel); rewritten as package main
// what: the result channel has room for the one error, so the goroutine's send never blocks
//   even when the caller drops the channel

package main

import "errors"

func Go(f func() error) chan error {
	ch := make(chan error, 1)
	go func() {
		ch <- f()
	}()
	return ch
}

func main() {
	Go(func() error { return errors.New("failed") })
}
