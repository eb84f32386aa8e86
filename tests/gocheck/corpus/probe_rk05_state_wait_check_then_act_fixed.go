// want: ok
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: fixed version of rk05: WaitStop() reads the running flag and the stop channel in one
//   critical section, so the channel it waits on is the one SetStopped() will close (or it sees
//   the container already stopped and does not wait)

package main

import (
	"fmt"
	"sync"
)

type State struct {
	mu       sync.Mutex
	running  bool
	exitCode int
	waitStop chan struct{}
}

func (s *State) SetStopped(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = false
	s.exitCode = code
	close(s.waitStop)
	s.waitStop = make(chan struct{}) // armed for the next run
}

func (s *State) WaitStop() int {
	s.mu.Lock()
	running, ch := s.running, s.waitStop
	s.mu.Unlock()
	if running {
		<-ch
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode
}

func main() {
	s := &State{running: true, waitStop: make(chan struct{})}
	done := make(chan int)
	go func() {
		done <- s.WaitStop()
	}()
	s.SetStopped(137)
	fmt.Println("exit code", <-done)
}
