// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS cpu=1 cpu=2 mem=7 mem=8 disk=3), in the style of a metrics batcher that flushes every K=3 points to a sink
// what: fixed twin of h4_batchflush: main ranges over the batch channel until the batcher closes
//   it, so the final partial batch is received too and the batcher always finishes.
package main

import (
	"fmt"
	"os"
	"strings"
)

const batchSize = 3

type batch []string

func batcher(points []string, out chan<- batch) {
	var cur batch
	for _, p := range points {
		cur = append(cur, p)
		if len(cur) == batchSize {
			out <- cur
			cur = nil
		}
	}
	if len(cur) > 0 {
		out <- cur
	}
	close(out)
}

func flush(b batch) string {
	return "POST /write " + strings.Join(b, ";")
}

func main() {
	points := os.Args[1:]
	out := make(chan batch)
	go batcher(points, out)
	n := 0
	for b := range out {
		fmt.Println(flush(b))
		n++
	}
	fmt.Printf("flushed %d batches\n", n)
}
