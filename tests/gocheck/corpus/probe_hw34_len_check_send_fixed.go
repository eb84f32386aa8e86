// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a "non-blocking" enqueue that checks len(ch) < cap(ch) before sending
// what: the enqueue is a select with a default case, which is atomic: the producer that finds
//   the slot taken drops its item instead of blocking; main waits for both producers
package main

import (
	"fmt"
	"sync"
	"time"
)

func tryEnqueue(q chan string, v string) bool {
	time.Sleep(time.Millisecond)
	select {
	case q <- v:
		return true
	default:
		return false
	}
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
