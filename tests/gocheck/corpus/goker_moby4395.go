// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/4395 (moby/moby PR 4395); rewritten as package main
// what: Go() runs f in a goroutine that sends its error on an unbuffered channel; the caller
//   drops the channel, so the goroutine blocks on the send for ever (a leak)

package main

import "errors"

func Go(f func() error) chan error {
	ch := make(chan error)
	go func() {
		ch <- f()
	}()
	return ch
}

func main() {
	Go(func() error { return errors.New("failed") })
}
