// want: ok
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_sc05_ping_ticker (a nats-server-style shutdown): the ping loop also
//   selects on the server's quitCh, which Shutdown closes before it stops the tickers and waits,
//   so every ping loop returns and the WaitGroup wait ends

package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

type client struct {
	cid     uint64
	srv     *server
	ping    *time.Ticker
	out     chan []byte
	closeCh chan struct{}
	pings   atomic.Int64
}

type server struct {
	mu           sync.Mutex
	clients      map[uint64]*client
	quitCh       chan struct{}
	grWG         sync.WaitGroup
	running      atomic.Bool
	shutdownOnce sync.Once
}

func (s *server) startGoRoutine(f func()) {
	s.grWG.Add(1)
	go func() {
		defer s.grWG.Done()
		f()
	}()
}

func (s *server) createClient(cid uint64) {
	c := &client{cid: cid, srv: s, ping: time.NewTicker(time.Millisecond),
		out: make(chan []byte, 4), closeCh: make(chan struct{})}
	s.mu.Lock()
	s.clients[cid] = c
	s.mu.Unlock()
	s.startGoRoutine(c.pingLoop)
}

func (c *client) pingLoop() {
	for {
		select {
		case <-c.ping.C:
			if !c.srv.running.Load() {
				return
			}
			c.pings.Add(1)
			select {
			case c.out <- []byte("PING\r\n"):
			default: // slow consumer: drop the ping
			}
		case <-c.closeCh:
			return
		case <-c.srv.quitCh:
			return
		}
	}
}

func (s *server) Shutdown() {
	s.shutdownOnce.Do(func() {
		s.running.Store(false)
		close(s.quitCh)
		s.mu.Lock()
		for _, c := range s.clients {
			c.ping.Stop()
		}
		s.mu.Unlock()
		s.grWG.Wait()
	})
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond) // run briefly, then shut down
	defer cancel()

	s := &server{clients: map[uint64]*client{}, quitCh: make(chan struct{})}
	s.running.Store(true)
	for cid := uint64(1); cid <= 2; cid++ {
		s.createClient(cid)
	}
	<-ctx.Done()
	s.Shutdown()
	fmt.Println("server shut down:", ctx.Err(), len(s.clients), "clients")
}
