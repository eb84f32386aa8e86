// want: channel-safety
// source: written for this corpus
// what: the receiver closes the channel when it has had enough while the producer is still
//   sending: the producer's next send panics (interleaving-dependent)

package main

import (
	"fmt"
	"sync"
)

func main() {
	ch := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 5; i++ {
			ch <- i
		}
	}()
	fmt.Println(<-ch)
	close(ch)
	wg.Wait()
}
