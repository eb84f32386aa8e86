// want: ok
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on go-ethereum event.Feed / feedSub.Unsubscribe and p2p peer loops
// what: fixed as go-ethereum does: Unsubscribe runs its body under a sync.Once, so the second
//
//	Unsubscribe of a dropped peer (from Server.Stop) is a no-op; no double close, nothing leaks.
package main

import (
	"fmt"
	"sync"
)

type PeerEvent struct {
	Peer int
	Kind string
}

type Subscription interface {
	Unsubscribe()
	Err() <-chan error
}

type Feed struct {
	mu   sync.Mutex
	subs map[*feedSub]struct{}
}

type feedSub struct {
	feed *Feed
	ch   chan PeerEvent
	err  chan error
	once sync.Once
}

func NewFeed() *Feed { return &Feed{subs: make(map[*feedSub]struct{})} }

func (f *Feed) Subscribe(ch chan PeerEvent) Subscription {
	s := &feedSub{feed: f, ch: ch, err: make(chan error)}
	f.mu.Lock()
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	return s
}

func (f *Feed) remove(s *feedSub) {
	f.mu.Lock()
	delete(f.subs, s)
	f.mu.Unlock()
}

// Send delivers ev to every subscriber that is still subscribed.
func (f *Feed) Send(ev PeerEvent) (nsent int) {
	f.mu.Lock()
	targets := make([]*feedSub, 0, len(f.subs))
	for s := range f.subs {
		targets = append(targets, s)
	}
	f.mu.Unlock()
	for _, s := range targets {
		select {
		case s.ch <- ev:
			nsent++
		case <-s.err:
		}
	}
	return nsent
}

func (s *feedSub) Unsubscribe() {
	s.once.Do(func() {
		s.feed.remove(s)
		close(s.err)
	})
}

func (s *feedSub) Err() <-chan error { return s.err }

type Peer struct {
	id     int
	events chan PeerEvent
	sub    Subscription
	done   chan struct{}
	seen   int
}

func newPeer(id int, feed *Feed) *Peer {
	p := &Peer{id: id, events: make(chan PeerEvent), done: make(chan struct{})}
	p.sub = feed.Subscribe(p.events)
	return p
}

func (p *Peer) loop() {
	defer close(p.done)
	for {
		select {
		case ev := <-p.events:
			if ev.Peer != p.id {
				continue
			}
			if ev.Kind == "drop" {
				p.sub.Unsubscribe()
				return
			}
			p.seen++
		case <-p.sub.Err():
			return
		}
	}
}

type Server struct {
	feed  *Feed
	peers []*Peer
}

func (srv *Server) Stop() {
	for _, p := range srv.peers {
		p.sub.Unsubscribe()
		<-p.done
	}
}

func main() {
	srv := &Server{feed: NewFeed()}
	for id := 1; id <= 2; id++ {
		p := newPeer(id, srv.feed)
		srv.peers = append(srv.peers, p)
		go p.loop()
	}
	srv.feed.Send(PeerEvent{Peer: 1, Kind: "msg"})
	srv.feed.Send(PeerEvent{Peer: 2, Kind: "msg"})
	srv.feed.Send(PeerEvent{Peer: 1, Kind: "drop"})
	srv.Stop()
	fmt.Println("peers stopped")
}
