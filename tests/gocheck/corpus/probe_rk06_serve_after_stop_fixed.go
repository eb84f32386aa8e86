// want: ok
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fixed version of rk06: Stop() sets s.lis to nil, and Serve() checks it under the lock,
//   closing its listener and returning ErrServerStopped when Stop() came first; otherwise Stop()
//   closes the registered listener and Accept fails

package main

import (
	"errors"
	"fmt"
	"sync"
)

var errServerStopped = errors.New("grpc: the server has been stopped")

type listener struct {
	conns  chan int
	closed chan struct{}
}

func (l *listener) Accept() (int, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return 0, errors.New("use of closed listener")
	}
}

func (l *listener) Close() { close(l.closed) }

type server struct {
	mu  sync.Mutex
	lis map[*listener]bool
}

func (s *server) Serve(l *listener) error {
	s.mu.Lock()
	if s.lis == nil {
		s.mu.Unlock()
		l.Close()
		return errServerStopped
	}
	s.lis[l] = true
	s.mu.Unlock()
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		fmt.Println("handling conn", c)
	}
}

func (s *server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for l := range s.lis {
		l.Close()
	}
	s.lis = nil
}

func main() {
	s := &server{lis: make(map[*listener]bool)}
	l := &listener{conns: make(chan int, 1), closed: make(chan struct{})}
	l.conns <- 1
	go s.Serve(l)
	s.Stop()
	fmt.Println("server stopped")
}
