// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS app.log access.log error.log), in the style of a log-shipping job that ships several files named on the command line
// what: fixed twin of h4_extrarecv: the collector receives exactly len(files) results, one per
//   shipper, so every send is matched and main finishes for any argument list.
package main

import (
	"fmt"
	"os"
	"strings"
)

type shipStat struct {
	file  string
	bytes int
}

type shipper struct {
	dest string
	out  chan<- shipStat
}

func (s *shipper) ship(file string) {
	payload := strings.Repeat("x", len(file)*10)
	s.out <- shipStat{file: file, bytes: len(payload)}
}

func main() {
	files := os.Args[1:]
	stats := make(chan shipStat)
	sh := &shipper{dest: "collector:9000", out: stats}
	for _, f := range files {
		go sh.ship(f)
	}
	total := 0
	for i := 0; i < len(files); i++ {
		st := <-stats
		total += st.bytes
		fmt.Printf("shipped %s (%d bytes) to %s\n", st.file, st.bytes, sh.dest)
	}
	fmt.Println("total bytes:", total)
}
