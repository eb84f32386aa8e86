// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS doc1 doc2 doc3 doc4 doc5), in the style of a bulk indexer that buffers documents and flushes every K=3 to a writer
// what: fixed twin of h4_batchclose: after draining the closed batch channel, flush allocates a
//   fresh one, so any number of documents is indexed in batches of 3 without sending on a
//   closed channel.
package main

import (
	"fmt"
	"os"
	"strings"
)

const batchSize = 3

type indexer struct {
	cur chan string
	out chan []string
}

func newIndexer(out chan []string) *indexer {
	return &indexer{cur: make(chan string, batchSize), out: out}
}

func (ix *indexer) flush() {
	close(ix.cur)
	var docs []string
	for d := range ix.cur {
		docs = append(docs, d)
	}
	ix.cur = make(chan string, batchSize)
	ix.out <- docs
}

func (ix *indexer) add(doc string) {
	ix.cur <- doc
	if len(ix.cur) == batchSize {
		ix.flush()
	}
}

func (ix *indexer) finish() {
	if len(ix.cur) > 0 {
		ix.flush()
	}
	close(ix.out)
}

func main() {
	out := make(chan []string)
	done := make(chan int)
	go func() {
		n := 0
		for docs := range out {
			fmt.Println("bulk:", strings.Join(docs, ","))
			n += len(docs)
		}
		done <- n
	}()
	ix := newIndexer(out)
	for _, d := range os.Args[1:] {
		ix.add(d)
	}
	ix.finish()
	fmt.Println("indexed", <-done, "documents")
}
