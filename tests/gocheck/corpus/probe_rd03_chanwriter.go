// want: partial-deadlock
// source: written for chanfuzz as a probe of library code handed a reader or writer of the program's (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a writer whose Write sends each write on an unbuffered channel; a logger goroutine writes twice through fmt.Fprintf and io.WriteString, main reads one line and returns, leaving the logger blocked in its second Write

package main

import (
	"fmt"
	"io"
)

type chanWriter struct{ lines chan string }

func (w chanWriter) Write(p []byte) (int, error) {
	w.lines <- string(p)
	return len(p), nil
}

func logTwice(w io.Writer) {
	fmt.Fprintf(w, "start %d\n", 1)
	io.WriteString(w, "stop\n")
}

func main() {
	w := chanWriter{lines: make(chan string)}
	go logTwice(w)
	fmt.Print(<-w.lines)
}
