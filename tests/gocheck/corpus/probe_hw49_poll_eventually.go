// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a test helper `eventually(cond, timeout)` that polls with time.Sleep until a deadline
// what: a background goroutine marks the job done under a mutex; main polls the flag until
//   it is set or a deadline passes, then waits for the goroutine's exit via its done channel
package main

import (
	"fmt"
	"sync"
	"time"
)

func eventually(cond func() bool, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return cond()
}

func main() {
	var mu sync.Mutex
	finished := false
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		mu.Lock()
		finished = true
		mu.Unlock()
	}()
	ok := eventually(func() bool {
		mu.Lock()
		defer mu.Unlock()
		return finished
	}, time.Second)
	<-exited
	fmt.Println("finished:", ok)
}
