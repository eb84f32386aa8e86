// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/grpc/795 the fix of grpc/grpc-go PR 795 (unlock on every path); rewritten as package main
// what: GracefulStop() unlocks the mutex on both paths (defer), so calling it three times
//   is fine and Serve gets the lock

package main

import "sync"

type Server struct {
	mu    sync.Mutex
	drain bool
}

func (s *Server) GracefulStop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drain {
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
