// want: ok
// source: written for chanfuzz as a probe of library code handed a reader or writer of the program's (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin: main reads both writes

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
	fmt.Print(<-w.lines)
}
