// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a test starts a background flusher and stops it in t.Cleanup; subtests run in parallel and use a shared buffered channel

package flush

import (
	"sync"
	"testing"
	"time"
)

type Flusher struct {
	in   chan int
	done chan struct{}
	mu   sync.Mutex
	sum  int
}

func NewFlusher() *Flusher {
	f := &Flusher{in: make(chan int, 16), done: make(chan struct{})}
	go f.run()
	return f
}

func (f *Flusher) run() {
	defer close(f.done)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case v, ok := <-f.in:
			if !ok {
				return
			}
			f.mu.Lock()
			f.sum += v
			f.mu.Unlock()
		case <-tick.C:
		}
	}
}

func (f *Flusher) Close() {
	close(f.in)
	<-f.done
}

func TestFlusher(t *testing.T) {
	f := NewFlusher()
	t.Cleanup(f.Close)
	for _, n := range []int{1, 2, 3} {
		t.Run("add", func(t *testing.T) {
			f.in <- n
		})
	}
}
