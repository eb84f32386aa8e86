// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ex01: main reads the summary after closing quit

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
	fmt.Println("seen", <-s.summary)
}
