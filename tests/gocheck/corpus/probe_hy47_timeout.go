// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS users slow-billing search), in the style of a CLI that queries several backends with a per-request timeout
// what: each query runs in a goroutine that sends on an unbuffered reply channel; main gives up
//   after 20 ms with time.After and moves on, so a backend slower than the timeout (names
//   starting with "slow", 40 ms) is left blocked on its send for ever after main returns
//   (leak).
package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

type reply struct {
	backend string
	rows    int
}

func query(backend string) reply {
	if strings.HasPrefix(backend, "slow") {
		time.Sleep(40 * time.Millisecond)
	}
	return reply{backend: backend, rows: len(backend) * 3}
}

func ask(backend string, timeout time.Duration) (reply, error) {
	ch := make(chan reply)
	go func() {
		ch <- query(backend)
	}()
	select {
	case r := <-ch:
		return r, nil
	case <-time.After(timeout):
		return reply{}, fmt.Errorf("%s: timed out after %v", backend, timeout)
	}
}

func main() {
	for _, b := range os.Args[1:] {
		r, err := ask(b, 20*time.Millisecond)
		if err != nil {
			fmt.Println("warn:", err)
			continue
		}
		fmt.Printf("%s: %d rows\n", r.backend, r.rows)
	}
}
