// want: channel-safety
// source: written for this corpus
// what: two goroutines close a channel after checking with select-default that it is still
//   open; both can pass the check before either closes (check-then-act race)

package main

import (
	"runtime"
	"sync"
)

func closeIfOpen(done chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	select {
	case <-done:
	default:
		runtime.Gosched() // e.g. logging between the check and the close
		close(done)
	}
}

func main() {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go closeIfOpen(done, &wg)
	}
	wg.Wait()
}
