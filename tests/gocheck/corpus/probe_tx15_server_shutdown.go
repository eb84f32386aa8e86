// want: global-deadlock
// source: a graceful-shutdown server loop over an in-memory listener, written for this set
// what: Shutdown hands a stop token to Serve over an unbuffered channel; if Serve already
//   returned because the listener was closed, the send in Shutdown blocks for ever.

package server

import (
	"errors"
	"sync"
	"testing"
	"time"
)

var ErrListenerClosed = errors.New("listener closed")

type Conn struct {
	Req  string
	Resp chan string
}

type Listener struct{ conns chan Conn }

func NewListener() *Listener { return &Listener{conns: make(chan Conn)} }
func (l *Listener) Close()   { close(l.conns) }

type Server struct {
	quit     chan struct{}
	handlers sync.WaitGroup
}

func NewServer() *Server { return &Server{quit: make(chan struct{})} }

func (s *Server) Serve(l *Listener) error {
	for {
		select {
		case c, ok := <-l.conns:
			if !ok {
				return ErrListenerClosed
			}
			s.handlers.Add(1)
			go func() {
				defer s.handlers.Done()
				c.Resp <- "echo:" + c.Req
			}()
		case <-s.quit:
			return nil
		}
	}
}

// Shutdown stops Serve and waits for in-flight handlers.
func (s *Server) Shutdown() {
	s.quit <- struct{}{}
	s.handlers.Wait()
}

func TestServer(t *testing.T) {
	tests := []struct {
		name          string
		closeListener bool
		wantErr       error
	}{
		{"shutdown while serving", false, nil},
		{"listener closed first", true, ErrListenerClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewListener()
			s := NewServer()
			errc := make(chan error, 1)
			go func() { errc <- s.Serve(l) }()

			resp := make(chan string, 1)
			l.conns <- Conn{Req: "hi", Resp: resp}
			if got := <-resp; got != "echo:hi" {
				t.Fatalf("got %q", got)
			}
			if tc.closeListener {
				l.Close()
				select {
				case err := <-errc:
					if !errors.Is(err, tc.wantErr) {
						t.Fatalf("Serve = %v, want %v", err, tc.wantErr)
					}
				case <-time.After(2 * time.Second):
					t.Fatal("Serve did not return")
				}
			}
			s.Shutdown()
		})
	}
}
