// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05), in the style of any tool that fans out over strings.Split(os.Getenv(...), ","); the helper wanted ok, but with SOURCES of ten items or more one sender is left blocked (checked by hand with Go 1.26: NumGoroutine 2 after main's receive, SOURCES=a,b,c,d,e,f,g,h,i,j)
// what: strings.Split with a non-empty separator returns one element at least, so main's one
//   receive is matched; but a buffer of 8 and main's one receive take nine sends: a tenth
//   sender blocks for ever when main returns (a leak)
package main

import (
	"os"
	"strings"
)

func main() {
	ch := make(chan string, 8)
	for _, p := range strings.Split(os.Getenv("SOURCES"), ",") {
		go func() { ch <- p }()
	}
	println(<-ch)
}
