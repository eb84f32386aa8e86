// want: global-deadlock
// source: written for this corpus
// what: a goroutine returns early while holding the mutex; main then locks it and blocks for
//   ever

package main

import "sync"

func update(mu *sync.Mutex, fail bool, done chan<- bool) {
	mu.Lock()
	if fail {
		done <- false
		return // still locked
	}
	mu.Unlock()
	done <- true
}

func main() {
	var mu sync.Mutex
	done := make(chan bool)
	go update(&mu, true, done)
	<-done
	mu.Lock()
	mu.Unlock()
}
