// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (syncthing-style) a folder scanner runs a for-select loop and leaves it with a labelled
//   break when quit is closed, then reports a summary on an unbuffered channel; main closes quit
//   and returns without reading the summary, so the scanner blocks for ever (a leak)

package main

import "fmt"

type scanner struct {
	files   chan string
	quit    chan struct{}
	summary chan int
}

func (s *scanner) run() {
	seen := 0
loop:
	for {
		select {
		case f := <-s.files:
			if f != "" {
				seen++
			}
		case <-s.quit:
			break loop
		}
	}
	s.summary <- seen
}

func main() {
	s := &scanner{files: make(chan string), quit: make(chan struct{}), summary: make(chan int)}
	go s.run()
	for _, f := range []string{"a.txt", "b.txt"} {
		s.files <- f
	}
	close(s.quit)
	fmt.Println("stopped") // BUG: never reads s.summary
}
