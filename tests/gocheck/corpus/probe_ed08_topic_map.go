// want: ok
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Handlers kept as closures in a map route messages through a map keyed by a struct to route values that are
//   copied out of the map but share their buffered channel from an array; main receives one message per partition.

package main

import (
	"fmt"
	"sync"
)

type topic struct {
	name string
	part int
}

type route struct {
	out   chan string
	label string
}

func main() {
	var parts [2]chan string
	for i := range parts {
		parts[i] = make(chan string, 1)
	}
	routes := map[topic]route{
		{"orders", 0}: {out: parts[0], label: "orders-0"},
		{"orders", 1}: {out: parts[1], label: "orders-1"},
	}
	handlers := map[string]func(part int, msg string){
		"orders": func(part int, msg string) {
			r := routes[topic{"orders", part % len(parts)}] // a copy of the route
			r.out <- r.label + ":" + msg
		},
	}
	var wg sync.WaitGroup
	for i, msg := range []string{"o-1", "o-2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			handlers["orders"](i+1, msg)
		}()
	}
	for _, ch := range parts { // ranging over a copy of the array
		fmt.Println(<-ch)
	}
	wg.Wait()
}
