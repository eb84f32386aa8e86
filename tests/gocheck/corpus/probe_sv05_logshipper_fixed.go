// want: ok
// source: written for chanfuzz as a held-out probe of service-like programs (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: The log shipper of probe_sv05_logshipper.go fixed: Close closes the input and waits for the batcher, which
//   ships the last batch on its way out; Flush selects on the batcher's done channel, so it cannot block after it.

package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

var ErrClosed = errors.New("shipper: closed")

type Entry struct {
	Seq   int
	Level string
	Msg   string
}

// Sink receives batches of entries, e.g. a remote log service.
type Sink interface {
	Write(batch []Entry) error
}

type memSink struct {
	mu      sync.Mutex
	batches [][]Entry
}

func (m *memSink) Write(batch []Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	cp := make([]Entry, len(batch))
	copy(cp, batch)
	m.batches = append(m.batches, cp)
	return nil
}

func (m *memSink) Dump() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var parts []string
	for _, b := range m.batches {
		var msgs []string
		for _, e := range b {
			msgs = append(msgs, fmt.Sprintf("%d:%s", e.Seq, e.Msg))
		}
		parts = append(parts, "["+strings.Join(msgs, " ")+"]")
	}
	return strings.Join(parts, " ")
}

type Shipper struct {
	sink      Sink
	batchSize int
	interval  time.Duration

	in       chan Entry
	flushReq chan chan error
	done     chan struct{}

	mu     sync.Mutex
	closed bool
	seq    int
	err    error // the last flush's error, set by the batcher before done is closed
}

func NewShipper(sink Sink, batchSize int, interval time.Duration) *Shipper {
	return &Shipper{
		sink:      sink,
		batchSize: batchSize,
		interval:  interval,
		in:        make(chan Entry, 4),
		flushReq:  make(chan chan error),
		done:      make(chan struct{}),
	}
}

func (s *Shipper) Start() {
	go s.loop()
}

func (s *Shipper) loop() {
	defer close(s.done)
	t := time.NewTicker(s.interval)
	defer t.Stop()

	batch := make([]Entry, 0, s.batchSize)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := s.sink.Write(batch)
		batch = make([]Entry, 0, s.batchSize)
		return err
	}
	for {
		select {
		case e, ok := <-s.in:
			if !ok {
				s.err = flush()
				return
			}
			batch = append(batch, e)
			if len(batch) >= s.batchSize {
				flush()
			}
		case <-t.C:
			flush()
		case reply := <-s.flushReq:
			reply <- flush()
		}
	}
}

func (s *Shipper) Log(level, msg string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.seq++
	s.in <- Entry{Seq: s.seq, Level: level, Msg: msg}
	return nil
}

// Flush ships whatever is batched and waits for the sink's answer.
func (s *Shipper) Flush() error {
	reply := make(chan error, 1)
	select {
	case s.flushReq <- reply:
		return <-reply
	case <-s.done:
		return ErrClosed
	}
}

// Close stops taking entries and ships the last batch.
func (s *Shipper) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.closed = true
	close(s.in)
	s.mu.Unlock()
	<-s.done
	return s.err
}

func main() {
	sink := &memSink{}
	sh := NewShipper(sink, 3, 50*time.Millisecond)
	sh.Start()

	for _, msg := range []string{"boot", "listen :8080", "ready", "GET /"} {
		if err := sh.Log("info", msg); err != nil {
			fmt.Println("log:", err)
		}
	}
	if err := sh.Flush(); err != nil {
		fmt.Println("flush:", err)
	}
	sh.Log("warn", "shutting down")

	if err := sh.Close(); err != nil {
		fmt.Println("close:", err)
	}
	fmt.Println("shipped:", sink.Dump())
}
