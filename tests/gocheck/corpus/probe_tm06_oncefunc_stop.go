// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: sync.OnceFunc makes a service's Stop idempotent: two shutdown paths close quit once

package main

import (
	"fmt"
	"sync"
)

type Service struct {
	quit chan struct{}
	done chan struct{}
	Stop func()
}

func NewService() *Service {
	s := &Service{quit: make(chan struct{}), done: make(chan struct{})}
	s.Stop = sync.OnceFunc(func() { close(s.quit) })
	return s
}

func (s *Service) Run() {
	defer close(s.done)
	<-s.quit
}

func main() {
	s := NewService()
	go s.Run()
	stopped := make(chan struct{})
	go func() {
		s.Stop()
		close(stopped)
	}()
	s.Stop()
	<-stopped
	<-s.done
	fmt.Println("clean shutdown")
}
