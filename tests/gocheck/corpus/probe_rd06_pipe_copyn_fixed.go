// want: ok
// source: written for chanfuzz as a probe of library code handed a reader or writer of the program's (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the twin that closes the reading end after its 3 bytes: the Write fails and the writer returns

package main

import (
	"fmt"
	"io"
	"strings"
)

func main() {
	r, w := io.Pipe()
	go func() {
		fmt.Fprint(w, "hello")
		w.Close()
	}()
	var b strings.Builder
	n, err := io.CopyN(&b, r, 3)
	r.Close()
	fmt.Println(n, err, b.String())
}
