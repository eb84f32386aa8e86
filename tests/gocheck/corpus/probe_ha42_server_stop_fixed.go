// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a gRPC/Caddy server whose Stop is deferred and also called on a fatal reload
// what: Stop closes the quit channel inside a sync.Once and every call waits for the serve loop, so
//   the explicit Stop and the deferred one are both safe.
package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

type Server struct {
	name     string
	conns    chan string
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	served   map[string]int
}

func NewServer(name string) *Server {
	return &Server{
		name:   name,
		conns:  make(chan string),
		quit:   make(chan struct{}),
		done:   make(chan struct{}),
		served: make(map[string]int),
	}
}

func (s *Server) Serve() {
	go func() {
		defer close(s.done)
		for {
			select {
			case c := <-s.conns:
				route, _, _ := strings.Cut(c, "?")
				s.served[route]++
			case <-s.quit:
				return
			}
		}
	}()
}

func (s *Server) Handle(req string) { s.conns <- req }

// Stop is idempotent: the first call closes quit, every call waits for the loop.
func (s *Server) Stop() {
	s.stopOnce.Do(func() {
		close(s.quit)
		fmt.Println(s.name, "stopping")
	})
	<-s.done
}

type Config struct {
	Listen string
	Routes []string
}

func reload(raw string) (*Config, error) {
	fields := strings.Fields(raw)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "listen=") {
		return nil, errors.New("reload: missing listen directive")
	}
	return &Config{Listen: strings.TrimPrefix(fields[0], "listen="), Routes: fields[1:]}, nil
}

func run() error {
	srv := NewServer("api")
	srv.Serve()
	defer srv.Stop()

	for _, r := range []string{"/healthz", "/v1/pods?limit=5", "/v1/pods", "/metrics"} {
		srv.Handle(r)
	}
	if _, err := reload("routes=/v1/pods /v1/nodes"); err != nil {
		fmt.Println("fatal:", err, "- shutting down")
		srv.Stop()
		return err
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Println("exited with:", err)
	}
}
