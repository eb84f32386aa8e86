// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a server gating request handlers on a sync.Cond readiness flag
// what: the cache is warmed synchronously and the readiness Broadcast happens before any handler
//   waits; waitReady calls cond.Wait without checking the flag, so every handler sleeps for ever and main gives up.
package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

type Server struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
	cache map[string]string
}

func NewServer() *Server {
	s := &Server{cache: make(map[string]string)}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *Server) warmUp(routes []string) {
	s.mu.Lock()
	for _, r := range routes {
		s.cache[r] = strings.ToUpper(strings.TrimPrefix(r, "/"))
	}
	s.ready = true
	s.mu.Unlock()
	s.cond.Broadcast()
}

func (s *Server) waitReady() {
	s.mu.Lock()
	s.cond.Wait()
	s.mu.Unlock()
}

func (s *Server) handle(route string) (string, error) {
	s.waitReady()
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.cache[route]
	if !ok {
		return "", fmt.Errorf("no route %s", route)
	}
	return v, nil
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

func main() {
	s := NewServer()
	s.warmUp([]string{"/users", "/orders", "/status"})

	requests := []string{"/users", "/status", "/missing"}
	replies := make(chan string, len(requests))
	var wg sync.WaitGroup
	for _, r := range requests {
		wg.Add(1)
		go func(route string) {
			defer wg.Done()
			v, err := s.handle(route)
			if err != nil {
				v = "error: " + err.Error()
			}
			replies <- v
		}(r)
	}
	if !waitTimeout(&wg, 30*time.Millisecond) {
		fmt.Println("handlers still waiting for readiness; giving up")
		return
	}
	close(replies)
	for v := range replies {
		fmt.Println(v)
	}
}
