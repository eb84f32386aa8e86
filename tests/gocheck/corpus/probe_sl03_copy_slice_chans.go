// want: ok
// source: written for chanfuzz as a held-out probe of slices and builtins (2026-12-01, fourth round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: channels copied with the builtin copy into a second slice are the same channels

package main

import "fmt"

// copy makes dst hold the same channels; later writes to src do not reach dst.
func main() {
	src := []chan int{make(chan int), make(chan int)}
	dst := make([]chan int, 2)
	copy(dst, src)
	first := src[0]
	src[0] = make(chan int)
	go func() {
		dst[0] <- 1
		dst[1] <- 2
	}()
	fmt.Println(<-first + <-src[1])
}
