// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of net/http Server.Shutdown (close the listener, wait for active connections, force-close on deadline)
// what: the accept loop hands connections to tracked handler goroutines; Shutdown closes the listener
//   once, waits for handlers, and on the deadline force-closes them but still joins them before returning.
package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

type Conn struct {
	id    int
	reqs  chan string
	resps chan string
}

type Server struct {
	listener   chan *Conn
	closeOnce  sync.Once
	kill       chan struct{}
	handlers   sync.WaitGroup
	acceptDone chan struct{}
	mu         sync.Mutex
	served     map[int]int
}

func NewServer() *Server {
	return &Server{
		listener:   make(chan *Conn),
		kill:       make(chan struct{}),
		acceptDone: make(chan struct{}),
		served:     map[int]int{},
	}
}

func (s *Server) Serve() {
	defer close(s.acceptDone)
	for c := range s.listener {
		s.handlers.Add(1)
		go s.handle(c)
	}
}

func (s *Server) handle(c *Conn) {
	defer s.handlers.Done()
	defer close(c.resps)
	for {
		select {
		case req, ok := <-c.reqs:
			if !ok {
				return
			}
			method, path, _ := strings.Cut(req, " ")
			s.mu.Lock()
			s.served[c.id]++
			s.mu.Unlock()
			c.resps <- "200 " + method + " " + path
		case <-s.kill:
			return
		}
	}
}

func (s *Server) Shutdown(ctx context.Context) error {
	s.closeOnce.Do(func() { close(s.listener) })
	<-s.acceptDone
	idle := make(chan struct{})
	go func() {
		s.handlers.Wait()
		close(idle)
	}()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		close(s.kill)
		<-idle
		return ctx.Err()
	}
}

func client(s *Server, id int, paths []string, wg *sync.WaitGroup, out chan<- string) {
	defer wg.Done()
	c := &Conn{id: id, reqs: make(chan string), resps: make(chan string, len(paths))}
	s.listener <- c
	for _, p := range paths {
		c.reqs <- "GET " + p
	}
	close(c.reqs)
	n := 0
	for range c.resps {
		n++
	}
	out <- fmt.Sprintf("conn %d: %d responses", id, n)
}

func main() {
	s := NewServer()
	go s.Serve()
	out := make(chan string, 3)
	var wg sync.WaitGroup
	for i, paths := range [][]string{{"/", "/login"}, {"/api/v1/items"}, {"/healthz", "/metrics", "/"}} {
		wg.Add(1)
		go client(s, i, paths, &wg, out)
	}
	wg.Wait()
	close(out)
	for line := range out {
		fmt.Println(line)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		fmt.Println("shutdown:", err)
	}
	fmt.Println("served", len(s.served), "connections")
}
