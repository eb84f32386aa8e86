// want: partial-deadlock
// source: written for this corpus
// what: workers send results on an unbuffered channel and call Done; main only waits on the
//   WaitGroup in a goroutine and returns after the first result, leaving workers blocked

package main

import (
	"fmt"
	"sync"
)

func main() {
	results := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			results <- n
		}(i)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	fmt.Println(<-results)
}
