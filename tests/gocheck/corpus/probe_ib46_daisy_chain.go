// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Rob Pike's "Go Concurrency Patterns" talk (daisy-chain, Chinese whispers)
// what: 300 goroutines are chained by unbuffered channels, each receiving from its right neighbour
//   and sending one more to its left; a last goroutine feeds 1 into the rightmost channel and main
//   receives 301 from the leftmost. Run with 300 and with 5 gophers, and once more with channels
//   buffered 1 where the feeder starts first and every link finishes with a WaitGroup.

package main

import (
	"fmt"
	"sync"
)

func f(left, right chan int) {
	left <- 1 + <-right
}

func whisper(n int) int {
	leftmost := make(chan int)
	right := leftmost
	left := leftmost
	for i := 0; i < n; i++ {
		right = make(chan int)
		go f(left, right)
		left = right
	}
	go func(c chan int) { c <- 1 }(right)
	return <-leftmost
}

func whisperBuffered(n int) int {
	var wg sync.WaitGroup
	leftmost := make(chan int, 1)
	right := leftmost
	left := leftmost
	for i := 0; i < n; i++ {
		right = make(chan int, 1)
		wg.Add(1)
		go func(left, right chan int) {
			defer wg.Done()
			f(left, right)
		}(left, right)
		left = right
	}
	right <- 1
	wg.Wait()
	return <-leftmost
}

func main() {
	fmt.Println(whisper(300))
	fmt.Println(whisper(5))
	fmt.Println(whisperBuffered(100))
}
