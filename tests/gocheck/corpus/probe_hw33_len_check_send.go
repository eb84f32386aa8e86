// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a "non-blocking" enqueue that checks len(ch) < cap(ch) before sending
// what: two producers both see a free slot in the one-slot queue and both send; one send
//   fills the slot, the other blocks, and main waits for both producers before reading: all blocked
package main

import (
	"fmt"
	"sync"
	"time"
)

func tryEnqueue(q chan string, v string) bool {
	if len(q) < cap(q) { // BUG: check-then-send is not atomic
		time.Sleep(time.Millisecond)
		q <- v
		return true
	}
	return false
}

func main() {
	q := make(chan string, 1)
	var wg sync.WaitGroup
	for _, v := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tryEnqueue(q, v)
		}()
	}
	wg.Wait()
	fmt.Println("took", <-q)
}
