// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a gRPC-like HTTP/2 client transport demultiplexing frames to per-stream channels
// what: Close closes every stream's receive channel while the reader goroutine is still running; a
//   frame that arrives after Close is delivered by the reader into the closed channel: send on closed channel.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type Frame struct {
	StreamID  uint32
	Data      string
	EndStream bool
}

type Stream struct {
	id   uint32
	recv chan Frame
}

type Transport struct {
	conn       <-chan Frame
	mu         sync.Mutex
	streams    map[uint32]*Stream
	closed     bool
	readerDone chan struct{}
}

func NewTransport(conn <-chan Frame) *Transport {
	t := &Transport{conn: conn, streams: make(map[uint32]*Stream), readerDone: make(chan struct{})}
	go t.reader()
	return t
}

func (t *Transport) NewStream(id uint32) (*Stream, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, fmt.Errorf("transport closed")
	}
	s := &Stream{id: id, recv: make(chan Frame, 4)}
	t.streams[id] = s
	return s, nil
}

// reader demultiplexes frames from the connection to their streams.
func (t *Transport) reader() {
	defer close(t.readerDone)
	for f := range t.conn {
		t.mu.Lock()
		s, ok := t.streams[f.StreamID]
		t.mu.Unlock()
		if !ok {
			continue // stream already reset
		}
		s.recv <- f
	}
}

// Close tears the transport down and wakes every stream reader.
func (t *Transport) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.closed = true
	for _, s := range t.streams {
		close(s.recv)
	}
}

func recvMessage(s *Stream) string {
	var b strings.Builder
	for f := range s.recv {
		b.WriteString(f.Data)
		if f.EndStream {
			break
		}
	}
	return b.String()
}

func main() {
	conn := make(chan Frame)
	t := NewTransport(conn)
	s, err := t.NewStream(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	conn <- Frame{StreamID: 1, Data: "HEADERS "}
	conn <- Frame{StreamID: 1, Data: "DATA", EndStream: true}
	fmt.Println("stream 1:", recvMessage(s))

	t.Close()
	// The peer's trailing WINDOW_UPDATE/RST was already on the wire.
	conn <- Frame{StreamID: 1, Data: "RST_STREAM"}
	close(conn)
	<-t.readerDone
	fmt.Println("transport closed")
}
