// want: ok
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Rob Pike's daisy chain of five whisperers; each receives once from its right neighbour and sends
//   once to its left, the last channel is fed by one goroutine, and main's receive on the leftmost ends the chain.

package main

import "fmt"

func whisper(left chan<- int, right <-chan int) {
	left <- 1 + <-right
}

func main() {
	const n = 5
	leftmost := make(chan int)
	right := leftmost
	left := leftmost
	for i := 0; i < n; i++ {
		right = make(chan int)
		go whisper(left, right)
		left = right
	}
	go func(c chan int) { c <- 1 }(right)
	fmt.Println(<-leftmost)
}
