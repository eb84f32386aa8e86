// want: partial-deadlock
// source: written for chanfuzz as a probe of library code handed a reader or writer of the program's (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a reader takes the first 3 bytes of a 5-byte write with io.CopyN and never reads again nor closes, so the writer's Write waits for ever

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
	fmt.Println(n, err, b.String())
}
