// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV SOURCES="kafka,syslog,webhook"), in the style of an event merger that fans in several feeds named in $SOURCES
// what: every feed goroutine does `defer close(out)` on the shared merged channel; with two or
//   more feeds the first one to finish closes it and the next feed's send (or close) panics
//   ("send on closed channel" / "close of closed channel"). A single feed works, so the bug
//   needs len(SOURCES) >= 2.
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

type event struct {
	source string
	seq    int
}

func feed(name string, n int, out chan<- event, wg *sync.WaitGroup) {
	defer wg.Done()
	defer close(out)
	for i := 0; i < n; i++ {
		out <- event{source: name, seq: i}
	}
}

func main() {
	sources := strings.Split(os.Getenv("SOURCES"), ",")
	out := make(chan event)
	var wg sync.WaitGroup
	for _, s := range sources {
		wg.Add(1)
		go feed(s, 3, out, &wg)
	}
	perSource := map[string]int{}
	for ev := range out {
		perSource[ev.source]++
	}
	wg.Wait()
	for s, n := range perSource {
		fmt.Printf("%s: %d events\n", s, n)
	}
}
