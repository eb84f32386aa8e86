// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a scatter/gather over an input list whose length is only known at run time
// what: one goroutine per input name sends on an unbuffered channel and main receives exactly
//   len(names) values; the counts match, so every sender finds its receiver
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	names := strings.Split(os.Getenv("NAMES"), ",")
	lengths := make(chan int)
	for _, n := range names {
		go func() { lengths <- len(n) }()
	}
	total := 0
	for range len(names) {
		total += <-lengths
	}
	fmt.Println(total)
}
