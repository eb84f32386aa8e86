// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: STDIN "GET /index\nPOST /login\nget /index\nDELETE /item/3"), in the style of a three-stage text pipeline (parse -> normalize -> count) over stdin
// what: fixed twin of h4_pipeline: every stage closes its output when its input is exhausted, so
//   the close propagates down the pipeline and the counter reports for any input, including
//   none.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

type request struct {
	method, path string
}

func parse(sc *bufio.Scanner) <-chan request {
	out := make(chan request)
	go func() {
		defer close(out)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 2 {
				out <- request{f[0], f[1]}
			}
		}
	}()
	return out
}

func normalize(in <-chan request) <-chan request {
	out := make(chan request)
	go func() {
		defer close(out)
		for r := range in {
			r.method = strings.ToUpper(r.method)
			out <- r
		}
	}()
	return out
}

func count(in <-chan request, done chan<- map[string]int) {
	m := map[string]int{}
	for r := range in {
		m[r.method+" "+r.path]++
	}
	done <- m
}

func main() {
	done := make(chan map[string]int)
	go count(normalize(parse(bufio.NewScanner(os.Stdin))), done)
	for k, v := range <-done {
		fmt.Printf("%5d %s\n", v, k)
	}
}
