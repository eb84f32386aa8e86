// want: global-deadlock
// source: written for chanfuzz as a held-out probe of slices and builtins (2026-12-01, fourth round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: clear empties a registry map of channels; a later send looks the channel up again and
//   gets a nil channel

package main

import "fmt"

// clear empties the registry; the later lookup gives a nil channel.
func main() {
	reg := map[string]chan int{"a": make(chan int, 1)}
	a := reg["a"]
	clear(reg)
	go func() { reg["a"] <- 1 }()
	fmt.Println(<-a)
}
