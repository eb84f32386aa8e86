// want: global-deadlock
// source: written for chanfuzz as a held-out probe of slices and builtins (2026-12-01, fourth round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: two appends to a slice of length 1 and capacity 3 share the array: the first result's
//   second channel is the unbuffered one the second append stored

package main

import "fmt"

func main() {
	s := make([]chan int, 1, 3)
	s[0] = make(chan int, 1)
	a := append(s, make(chan int, 1))
	b := append(s, make(chan int))
	fmt.Println(cap(a), len(b))
	a[1] <- 1 // a[1] is b's unbuffered channel: blocks
}
