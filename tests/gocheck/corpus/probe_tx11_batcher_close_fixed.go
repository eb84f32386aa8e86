// want: ok
// source: a batcher that flushes on size or on a ticker, fixed version, written for this set
// what: Close signals a separate quit channel (once) instead of closing the input,
//   so Add after Close can only take the done case.

package batch

import (
	"errors"
	"sync"
	"testing"
	"time"
)

var ErrClosed = errors.New("batcher closed")

type Batcher struct {
	in    chan int
	quit  chan struct{}
	once  sync.Once
	done  chan struct{}
	size  int
	every time.Duration
	flush func([]int)
}

func New(size int, every time.Duration, flush func([]int)) *Batcher {
	b := &Batcher{in: make(chan int), quit: make(chan struct{}), done: make(chan struct{}), size: size, every: every, flush: flush}
	go b.run()
	return b
}

func (b *Batcher) run() {
	defer close(b.done)
	tick := time.NewTicker(b.every)
	defer tick.Stop()
	var buf []int
	emit := func() {
		if len(buf) > 0 {
			b.flush(buf)
			buf = nil
		}
	}
	for {
		select {
		case <-b.quit:
			emit()
			return
		case v := <-b.in:
			buf = append(buf, v)
			if len(buf) >= b.size {
				emit()
			}
		case <-tick.C:
			emit()
		}
	}
}

func (b *Batcher) Add(v int) error {
	select {
	case <-b.done:
		return ErrClosed
	case b.in <- v:
		return nil
	}
}

func (b *Batcher) Close() {
	b.once.Do(func() { close(b.quit) })
	<-b.done
}

type sink struct {
	mu      sync.Mutex
	batches [][]int
}

func (s *sink) flush(b []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches = append(s.batches, b)
}

func (s *sink) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, b := range s.batches {
		n += len(b)
	}
	return n
}

func TestBatcher(t *testing.T) {
	tests := []struct {
		name  string
		size  int
		items int
	}{
		{"exact", 2, 4},
		{"partial", 3, 4},
		{"single", 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &sink{}
			b := New(tc.size, 10*time.Millisecond, s.flush)
			for i := 0; i < tc.items; i++ {
				if err := b.Add(i); err != nil {
					t.Fatalf("Add: %v", err)
				}
			}
			b.Close()
			if got := s.total(); got != tc.items {
				t.Errorf("flushed %d items, want %d", got, tc.items)
			}
			for i := 0; i < 3; i++ {
				if err := b.Add(99); !errors.Is(err, ErrClosed) {
					t.Errorf("Add after Close = %v, want ErrClosed", err)
				}
			}
		})
	}
}
