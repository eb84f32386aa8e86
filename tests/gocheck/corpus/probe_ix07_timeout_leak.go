// want: partial-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a call with a timeout returns on the timer while the worker is left blocked sending its result on an unbuffered channel

package main

import (
	"errors"
	"fmt"
	"time"
)

func slowSquare(x int) int {
	time.Sleep(2 * time.Millisecond)
	return x * x
}

func withTimeout(x int, d time.Duration) (int, error) {
	ch := make(chan int)
	go func() { ch <- slowSquare(x) }()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(d):
		return 0, errors.New("timeout")
	}
}

func main() {
	v, err := withTimeout(3, time.Millisecond)
	fmt.Println(v, err)
	time.Sleep(5 * time.Millisecond)
}
