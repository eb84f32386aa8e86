// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS cpu=1 cpu=2 mem=7 mem=8 disk=3), in the style of a metrics batcher that flushes every K=3 points to a sink
// what: the batcher goroutine emits one batch per 3 input points plus a final partial batch;
//   main computes the number of batches as len(points)/3 and stops receiving after that
//   many, so when len(points) % 3 != 0 the batcher stays blocked sending the last partial
//   batch after main has returned (leak).
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
	expected := len(points) / batchSize
	for i := 0; i < expected; i++ {
		fmt.Println(flush(<-out))
	}
	fmt.Printf("flushed %d batches\n", expected)
}
