// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: modelled on an influxdb-style store with one writer goroutine per shard (kernel invented):
//   each writer ranges over its shard's request channel, but Store.Close only stops the stats
//   ticker and marks the store closed, never closing the request channels, so all 8 writers stay
//   blocked in their range loops after the test has written its 50 batches and returned

package tsdb

import (
	"errors"
	"sync"
	"testing"
	"time"
)

var errStoreClosed = errors.New("store closed")

type point struct {
	series string
	value  float64
	ts     int64
}

type writeReq struct {
	points []point
	done   chan error
}

type shard struct {
	id      int
	mu      sync.Mutex
	written int
	reqs    chan writeReq
}

// writer applies the shard's write requests in order.
func (s *shard) writer() {
	for req := range s.reqs {
		s.mu.Lock()
		s.written += len(req.points)
		s.mu.Unlock()
		req.done <- nil
	}
}

type Store struct {
	mu      sync.RWMutex
	closed  bool
	shards  []*shard
	closing chan struct{}
	stats   chan int
}

func NewStore(n int) *Store {
	s := &Store{closing: make(chan struct{}), stats: make(chan int, 1)}
	for i := 0; i < n; i++ {
		s.shards = append(s.shards, &shard{id: i, reqs: make(chan writeReq)})
	}
	return s
}

func (s *Store) Open() {
	for _, sh := range s.shards {
		go sh.writer()
	}
	go s.monitor()
}

// monitor reports the number of points written, until the store closes.
func (s *Store) monitor() {
	ticker := time.NewTicker(time.Millisecond)
	defer ticker.Stop()
	for {
		select {
		case <-s.closing:
			return
		case <-ticker.C:
			n := 0
			s.mu.RLock()
			for _, sh := range s.shards {
				sh.mu.Lock()
				n += sh.written
				sh.mu.Unlock()
			}
			s.mu.RUnlock()
			select {
			case s.stats <- n:
			default:
			}
		}
	}
}

// WritePoints splits the points over the shards and waits until every shard has them.
func (s *Store) WritePoints(points []point) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return errStoreClosed
	}
	byShard := make([][]point, len(s.shards))
	for i, p := range points {
		byShard[i%len(s.shards)] = append(byShard[i%len(s.shards)], p)
	}
	dones := make([]chan error, len(s.shards))
	for i, sh := range s.shards {
		dones[i] = make(chan error, 1)
		sh.reqs <- writeReq{points: byShard[i], done: dones[i]}
	}
	for _, done := range dones {
		if err := <-done; err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	close(s.closing)
	// BUG: the shards' request channels are never closed: their writers are left in range.
	return nil
}

func TestStoreWrite(t *testing.T) {
	store := NewStore(8)
	store.Open()
	for batch := 0; batch < 50; batch++ {
		points := make([]point, 16)
		for i := range points {
			points[i] = point{series: "cpu,host=a", value: float64(batch*16 + i), ts: int64(batch)}
		}
		if err := store.WritePoints(points); err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	if err := store.WritePoints([]point{{series: "cpu"}}); err != errStoreClosed {
		t.Errorf("write after close: %v, want %v", err, errStoreClosed)
	}
}
