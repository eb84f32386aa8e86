// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ey04: the metrics loop closes done with defer on every path

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
		defer close(m.done)
		<-m.quit
		if m.scrapeErr != nil {
			fmt.Println(m.scrapeErr)
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
