// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on hashicorp/yamux Session.recvLoop / Stream receive buffers
// what: each stream's reader goroutine ranges over stream.recvCh, but Session.Close only stops
//
//	the receive loop and never closes the streams' channels; after main has handled all frames
//	and closed the session it returns while both readers are blocked for ever in range.
package main

import (
	"errors"
	"fmt"
	"sync"
)

type frame struct {
	streamID uint32
	payload  []byte
}

type Stream struct {
	id     uint32
	recvCh chan []byte
}

type Session struct {
	mu       sync.Mutex
	streams  map[uint32]*Stream
	conn     chan frame // the underlying net.Conn, as a channel of decoded frames
	recvDone chan struct{}
	closed   bool
}

var errSessionClosed = errors.New("yamux: session closed")

func newSession(conn chan frame) *Session {
	s := &Session{streams: make(map[uint32]*Stream), conn: conn, recvDone: make(chan struct{})}
	go s.recvLoop()
	return s
}

func (s *Session) OpenStream(id uint32) (*Stream, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errSessionClosed
	}
	st := &Stream{id: id, recvCh: make(chan []byte, 4)}
	s.streams[id] = st
	return st, nil
}

func (s *Session) recvLoop() {
	defer close(s.recvDone)
	for f := range s.conn {
		s.mu.Lock()
		st := s.streams[f.streamID]
		s.mu.Unlock()
		if st == nil {
			continue // frame for an unknown stream: drop it
		}
		st.recvCh <- f.payload
	}
}

func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	<-s.recvDone
	// BUG: the streams' recvCh are never closed, so readers never see EOF
	return nil
}

func main() {
	conn := make(chan frame)
	sess := newSession(conn)
	var handled sync.WaitGroup
	var mu sync.Mutex
	received := map[uint32]int{}
	for id := uint32(1); id <= 2; id++ {
		st, err := sess.OpenStream(id)
		if err != nil {
			return
		}
		go func(st *Stream) {
			for buf := range st.recvCh {
				mu.Lock()
				received[st.id] += len(buf)
				mu.Unlock()
				handled.Done()
			}
		}(st)
	}
	frames := []frame{{1, []byte("GET /")}, {2, []byte("PING")}, {1, []byte("body")}, {3, []byte("x")}}
	handled.Add(3)
	for _, f := range frames {
		conn <- f
	}
	close(conn) // remote end hung up
	handled.Wait()
	sess.Close()
	mu.Lock()
	fmt.Println("received:", received)
	mu.Unlock()
}
