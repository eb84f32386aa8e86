// want: global-deadlock
// source: written for this corpus
// what: main holds the mutex while it waits for a goroutine's message; the goroutine needs the
//   mutex before it sends (a lock-channel cycle)

package main

import "sync"

func main() {
	var mu sync.Mutex
	ch := make(chan int)
	mu.Lock()
	go func() {
		mu.Lock()
		ch <- 1
		mu.Unlock()
	}()
	<-ch
	mu.Unlock()
}
