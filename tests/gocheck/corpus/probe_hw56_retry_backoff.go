// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a retry helper with exponential backoff and a per-attempt context timeout
// what: each attempt runs in a goroutine that reports on an unbuffered channel; when the
//   attempt's context times out the loop moves on (and finally returns), so the slow attempt's
//   goroutine stays blocked on its send (a leak)
package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

func dial(n int) error {
	if n == 0 {
		time.Sleep(20 * time.Millisecond) // first attempt hangs
		return nil
	}
	return nil
}

func withRetry(ctx context.Context, attempts int) error {
	backoff := time.Millisecond
	for i := 0; i < attempts; i++ {
		actx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
		res := make(chan error) // BUG: should be buffered (1)
		go func(n int) { res <- dial(n) }(i)
		select {
		case err := <-res:
			cancel()
			if err == nil {
				return nil
			}
		case <-actx.Done():
			cancel()
		}
		time.Sleep(backoff)
		backoff *= 2
	}
	return errors.New("out of attempts")
}

func main() {
	fmt.Println(withRetry(context.Background(), 3))
}
