// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of modern Go dispatch in a fixed order (slices.Sorted(maps.Keys(m)))
// what: one goroutine per registered handler waits on its own inbox; main sends one message to
//   each in sorted key order, then closes every inbox and waits; nothing blocks
package main

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

func main() {
	inboxes := map[string]chan string{
		"billing": make(chan string),
		"email":   make(chan string),
	}
	var wg sync.WaitGroup
	for name, in := range inboxes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range in {
				fmt.Println(name, "got", m)
			}
		}()
	}
	for _, name := range slices.Sorted(maps.Keys(inboxes)) {
		inboxes[name] <- "order created"
	}
	for _, in := range inboxes {
		close(in)
	}
	wg.Wait()
}
