// want: ok
// source: a graceful-shutdown server loop over an in-memory listener, fixed version, written for this set
// what: Shutdown closes quit once and waits for Serve's done channel, which Serve
//   closes on every return path, so Shutdown after a closed listener returns.

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
	stopOnce sync.Once
	served   chan struct{}
	handlers sync.WaitGroup
}

func NewServer() *Server { return &Server{quit: make(chan struct{}), served: make(chan struct{})} }

func (s *Server) Serve(l *Listener) error {
	defer close(s.served)
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
	s.stopOnce.Do(func() { close(s.quit) })
	<-s.served
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
