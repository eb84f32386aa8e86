// want: channel-safety
// source: written for this corpus
// what: two workers send results; main closes the channel after the first result, so the
//   second worker's send can hit the closed channel (interleaving-dependent)

package main

import (
	"fmt"
	"time"
)

func worker(id int, results chan<- int) {
	x := 0
	for i := 0; i < id*100000; i++ { // worker 2 computes longer
		x += i
	}
	results <- id + x%2
}

func main() {
	results := make(chan int, 2)
	go worker(1, results)
	go worker(2, results)
	fmt.Println(<-results)
	close(results)
	time.Sleep(5 * time.Millisecond) // main does other work before it returns
}
