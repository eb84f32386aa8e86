// want: ok
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_sc03_stop_signal (a caddy-style server stopped two ways): the signal trap
//   calls the sync.Once-guarded Stop like the admin API does, so whichever of SIGTERM and the
//   admin's "stop" comes first closes done, and the other is a no-op

package main

import (
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

type server struct {
	stopOnce sync.Once
	done     chan struct{}
	reqs     chan string
	wg       sync.WaitGroup
	handled  atomic.Int64
	mu       sync.Mutex
	hits     map[string]int
}

func newServer() *server {
	return &server{done: make(chan struct{}), reqs: make(chan string), hits: map[string]int{}}
}

// serve is started as a method value.
func (s *server) serve() {
	defer s.wg.Done()
	for {
		select {
		case <-s.done:
			return
		case r := <-s.reqs:
			s.mu.Lock()
			s.hits[strings.SplitN(r, "/", 3)[1]]++
			s.mu.Unlock()
			s.handled.Add(1)
		}
	}
}

func (s *server) Stop() {
	s.stopOnce.Do(func() { close(s.done) })
}

// adminAPI handles the admin endpoint's commands.
func adminAPI(s *server, cmds <-chan string, wg *sync.WaitGroup) {
	defer wg.Done()
	for cmd := range cmds {
		if cmd == "stop" {
			s.Stop()
		}
	}
}

// trapSignals waits for SIGINT/SIGTERM or for the server to stop by itself.
func trapSignals(s *server, sigs <-chan os.Signal, trapped chan<- struct{}) {
	defer close(trapped)
	select {
	case sig := <-sigs:
		fmt.Println("received", sig, "- shutting down")
		s.Stop()
	case <-s.done:
	}
}

func main() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	s := newServer()
	s.wg.Add(1)
	go s.serve()
	trapped := make(chan struct{})
	go trapSignals(s, sigs, trapped)
	cmds := make(chan string)
	var adminWG sync.WaitGroup
	adminWG.Add(1)
	go adminAPI(s, cmds, &adminWG)

	for _, p := range []string{"/blog/a", "/blog/b", "/docs/x", "/api/v1", "/blog/c"} {
		select {
		case s.reqs <- p:
		case <-s.done: // stopped early: drop the request
		}
	}
	cmds <- "stop" // an admin asks the server to stop, and the service manager sends SIGTERM too
	select {
	case sigs <- syscall.SIGTERM:
	default: // like os/signal: never block delivering a signal
	}
	close(cmds)
	adminWG.Wait()
	<-trapped
	s.wg.Wait()

	keys := make([]string, 0, len(s.hits))
	for k := range s.hits {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	fmt.Println("handled", s.handled.Load(), "sections", keys)
}
