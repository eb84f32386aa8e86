// want: channel-safety
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a server's Stop closes quit without a guard; the test stops it twice

package server

import (
	"sync"
	"testing"
	"time"
)

type Server struct {
	quit chan struct{}
	wg   sync.WaitGroup
	hits int
	mu   sync.Mutex
}

func Start() *Server {
	s := &Server{quit: make(chan struct{})}
	s.wg.Add(1)
	go s.loop()
	return s
}

func (s *Server) loop() {
	defer s.wg.Done()
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.mu.Lock()
			s.hits++
			s.mu.Unlock()
		case <-s.quit:
			return
		}
	}
}

func (s *Server) Stop() {
	close(s.quit)
	s.wg.Wait()
}

func TestStop(t *testing.T) {
	s := Start()
	t.Cleanup(s.Stop)
	time.Sleep(3 * time.Millisecond)
	s.Stop()
}
