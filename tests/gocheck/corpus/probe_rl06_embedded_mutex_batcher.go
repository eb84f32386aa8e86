// want: global-deadlock
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a log Batcher embeds sync.Mutex and runs two method values as goroutines (go b.loop(),
//   f := b.flush; go f()); loop hands a full batch to the flusher while still holding the lock,
//   and the flusher takes the lock to update its counters after each write; when loop fills the
//   next batch before the flusher got the lock, each waits for the other and main waits on done

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
		if len(b.pending) == b.size {
			b.full <- b.pending // BUG: blocks while holding the lock the flusher needs
			b.pending = nil
		}
		b.Unlock()
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
