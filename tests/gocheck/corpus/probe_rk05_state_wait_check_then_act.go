// want: global-deadlock
// source: written for chanfuzz as a held-out probe of real-world bug kernels (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: (moby container-state-style) WaitStop() asks IsRunning() and then fetches the stop channel
//   in a second critical section; if the container stops in between, SetStopped() has closed the
//   old channel and installed a fresh one for the next run, so the waiter blocks on a channel
//   nobody will close and main blocks waiting for it (interleaving-dependent)

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

func (s *State) IsRunning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

func (s *State) stopChan() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waitStop
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
	if s.IsRunning() {
		<-s.stopChan() // BUG: the container may have stopped since IsRunning
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
