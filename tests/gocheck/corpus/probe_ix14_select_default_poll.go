// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a non-blocking send drops messages when the buffer is full; a drainer empties it after the producer is done

package main

import "fmt"

func main() {
	ch := make(chan int, 2)
	dropped := 0
	for i := 0; i < 5; i++ {
		select {
		case ch <- i:
		default:
			dropped++
		}
	}
	close(ch)
	n := 0
	for range ch {
		n++
	}
	fmt.Println(n, dropped)
}
