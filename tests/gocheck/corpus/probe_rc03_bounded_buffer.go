// want: ok
// source: Rosetta Code / classic 'Producer-consumer (bounded buffer)', rewritten
// what: two producers fill a buffered channel of capacity 3; a closer goroutine closes it after
//   both producers finish; two consumers drain it and main sums their counts.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	buf := make(chan int, 3)
	var producers sync.WaitGroup
	for p := 0; p < 2; p++ {
		producers.Add(1)
		go func(p int) {
			defer producers.Done()
			for i := 0; i < 10; i++ {
				buf <- p*100 + i
			}
		}(p)
	}
	go func() {
		producers.Wait()
		close(buf)
	}()

	counts := make(chan int)
	for c := 0; c < 2; c++ {
		go func() {
			n := 0
			for v := range buf {
				_ = v
				time.Sleep(100 * time.Microsecond)
				n++
			}
			counts <- n
		}()
	}
	total := <-counts + <-counts
	fmt.Println("consumed", total, "items")
}
