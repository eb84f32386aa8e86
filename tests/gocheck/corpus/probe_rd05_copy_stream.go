// want: ok
// source: written for chanfuzz as a probe of library code handed a reader or writer of the program's (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: io.Copy from a program's reader that receives chunks until its channel is closed into a strings.Builder

package main

import (
	"fmt"
	"io"
	"strings"
)

type chunkReader struct {
	in   <-chan string
	rest string
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.rest == "" {
		s, ok := <-r.in
		if !ok {
			return 0, io.EOF
		}
		r.rest = s
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

func main() {
	in := make(chan string)
	go func() {
		defer close(in)
		for _, s := range []string{"ab", "cd", "e"} {
			in <- s
		}
	}()
	var b strings.Builder
	n, err := io.Copy(&b, &chunkReader{in: in})
	fmt.Println(n, err, b.String())
}
