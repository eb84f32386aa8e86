// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/grpc/795 (grpc/grpc-go PR 795); rewritten as package main
// what: GracefulStop() locks the server's mutex and never unlocks it; the second call locks it
//   again and main blocks for ever (the Serve goroutine may block on the lock as well)

package main

import "sync"

type Server struct {
	mu    sync.Mutex
	drain bool
}

func (s *Server) GracefulStop() {
	s.mu.Lock()
	if s.drain {
		s.mu.Lock()
		return
	}
	s.drain = true
}

func (s *Server) Serve() {
	s.mu.Lock()
	s.mu.Unlock()
}

func main() {
	s := &Server{}
	go s.Serve()
	for i := 0; i < 3; i++ {
		s.GracefulStop()
	}
}
