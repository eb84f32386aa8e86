// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV SOURCES="kafka,syslog,webhook"), in the style of an event merger that fans in several feeds named in $SOURCES
// what: fixed twin of h4_fanin: the feeds only call wg.Done; a separate closer goroutine waits
//   for all feeds and then closes the merged channel exactly once, so main's range ends
//   cleanly for any number of feeds.
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
	go func() {
		wg.Wait()
		close(out)
	}()
	perSource := map[string]int{}
	for ev := range out {
		perSource[ev.source]++
	}
	for s, n := range perSource {
		fmt.Printf("%s: %d events\n", s, n)
	}
}
