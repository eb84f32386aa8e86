// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: (grpc-go-style) Serve() registers its listener in the server's map and loops on Accept;
//   Stop() closes the registered listeners; when Stop() runs before the Serve goroutine has
//   registered, Serve registers afterwards and blocks in Accept for ever after main returns
//   (a leak, interleaving-dependent)

package main

import (
	"errors"
	"fmt"
	"sync"
)

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
	s.lis[l] = true // BUG: no check whether the server was already stopped
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
		delete(s.lis, l)
	}
}

func main() {
	s := &server{lis: make(map[*listener]bool)}
	l := &listener{conns: make(chan int, 1), closed: make(chan struct{})}
	l.conns <- 1
	go s.Serve(l)
	s.Stop()
	fmt.Println("server stopped")
}
