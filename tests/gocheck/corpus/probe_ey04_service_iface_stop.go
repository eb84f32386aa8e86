// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (moby daemon-style) services are kept in a slice of an interface type with two
//   implementations; shutdown calls Stop() on each and then waits on each Done() channel;
//   the metrics service's Stop signals its loop, but the loop returns without closing done
//   (it only closes it on an error path), so main waits for ever

package main

import (
	"errors"
	"fmt"
)

type Service interface {
	Start()
	Stop()
	Done() <-chan struct{}
}

type base struct {
	quit chan struct{}
	done chan struct{}
}

func (b *base) Stop()                 { close(b.quit) }
func (b *base) Done() <-chan struct{} { return b.done }

type apiServer struct{ base }

func (a *apiServer) Start() {
	go func() {
		defer close(a.done)
		<-a.quit
	}()
}

type metrics struct {
	base
	scrapeErr error
}

func (m *metrics) Start() {
	go func() {
		<-m.quit
		if m.scrapeErr != nil {
			close(m.done) // BUG: done is only closed on the error path
			return
		}
	}()
}

func newBase() base { return base{quit: make(chan struct{}), done: make(chan struct{})} }

func main() {
	services := []Service{&apiServer{newBase()}, &metrics{base: newBase()}}
	for _, s := range services {
		s.Start()
	}
	for _, s := range services {
		s.Stop()
	}
	for _, s := range services {
		<-s.Done()
	}
	fmt.Println("shut down", errors.Is(nil, nil))
}
