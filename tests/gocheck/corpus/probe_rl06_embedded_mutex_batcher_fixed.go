// want: ok
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of probe_rl06_embedded_mutex_batcher: loop takes the full batch out of
//   pending under the lock, unlocks, and only then hands it to the flusher, so the flusher can
//   always get the lock for its counters and both method-value goroutines finish

package main

import (
	"fmt"
	"strings"
	"sync"
)

// Batcher groups log lines into batches and hands full batches to a flusher.
type Batcher struct {
	sync.Mutex
	size    int
	pending []string // guarded by the embedded mutex
	flushed int      // lines written so far, guarded by the embedded mutex
	batches int      // batches written so far, guarded by the embedded mutex

	in   chan string
	full chan []string
	done chan struct{}
	sink strings.Builder // stands in for the log file
}

func NewBatcher(size int) *Batcher {
	return &Batcher{
		size: size,
		in:   make(chan string, 16),
		full: make(chan []string),
		done: make(chan struct{}),
	}
}

// loop collects incoming lines into batches.
func (b *Batcher) loop() {
	for line := range b.in {
		b.Lock()
		b.pending = append(b.pending, line)
		var batch []string
		if len(b.pending) == b.size {
			batch, b.pending = b.pending, nil
		}
		b.Unlock()
		if batch != nil {
			b.full <- batch // sent without the lock held
		}
	}
	b.Lock()
	rest := b.pending
	b.pending = nil
	b.Unlock()
	if len(rest) > 0 {
		b.full <- rest
	}
	close(b.full)
}

// flush writes each batch and records what was written.
func (b *Batcher) flush() {
	defer close(b.done)
	for batch := range b.full {
		for _, line := range batch {
			b.sink.WriteString(line)
			b.sink.WriteByte('\n')
		}
		b.Lock()
		b.flushed += len(batch)
		b.batches++
		b.Unlock()
	}
}

// Stats reports how many lines and batches have been written.
func (b *Batcher) Stats() (lines, batches int) {
	b.Lock()
	defer b.Unlock()
	return b.flushed, b.batches
}

func main() {
	b := NewBatcher(2)
	go b.loop()
	f := b.flush
	go f()

	for i := 1; i <= 9; i++ {
		b.in <- fmt.Sprintf("GET /api/items/%d 200", i)
	}
	close(b.in)
	<-b.done
	lines, batches := b.Stats()
	fmt.Printf("wrote %d lines in %d batches\n", lines, batches)
}
