// want: global-deadlock
// source: written for chanfuzz as a held-out probe of slices and builtins (2026-12-01, fourth round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: two appends to one slice with spare capacity write the same array slot: the channel
//   the first append stored is replaced, and its receiver never meets the sender

package main

import "fmt"

// Two appends to one slice with spare capacity share the backing array: the
// second append overwrites the channel the first one stored.
func main() {
	base := make([]chan int, 0, 4)
	c1 := make(chan int)
	c2 := make(chan int)
	left := append(base, c1)
	right := append(base, c2)
	_ = right
	go func() {
		fmt.Println(<-left[0]) // left[0] is c2 now
	}()
	c1 <- 1
}
