// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a client-go leaderelection loop reporting leadership transitions on an event channel
// what: the elector reports "started" and later "stopped" leading with plain sends on an unbuffered
//   channel; main reads only the first event, does its work and returns, so the elector blocks for ever on the second send.
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

type LeaseStore struct {
	mu     sync.Mutex
	holder string
	renews int
	budget int
}

var ErrLeaseLost = errors.New("lease taken over by another candidate")

func (s *LeaseStore) TryAcquire(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holder == "" || s.holder == id {
		s.holder = id
		return true
	}
	return false
}

func (s *LeaseStore) Renew(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.renews++
	if s.renews > s.budget {
		s.holder = "node-b"
	}
	if s.holder != id {
		return ErrLeaseLost
	}
	return nil
}

type Transition struct {
	Leading bool
	Reason  string
}

type Elector struct {
	id     string
	store  *LeaseStore
	events chan Transition
}

func NewElector(id string, store *LeaseStore) *Elector {
	return &Elector{id: id, store: store, events: make(chan Transition)}
}

func (e *Elector) Run(ctx context.Context) {
	if !e.store.TryAcquire(e.id) {
		e.events <- Transition{Leading: false, Reason: "not acquired"}
		return
	}
	e.events <- Transition{Leading: true, Reason: "acquired"}
	reason := "context done"
	for ctx.Err() == nil {
		if err := e.store.Renew(e.id); err != nil {
			reason = err.Error()
			break
		}
	}
	e.events <- Transition{Leading: false, Reason: reason}
}

func reconcileAsLeader(ctx context.Context, items []string) int {
	done := 0
	for _, it := range items {
		if ctx.Err() != nil {
			break
		}
		if it != "" {
			done++
		}
	}
	return done
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := &LeaseStore{budget: 3}
	el := NewElector("node-a", store)
	go el.Run(ctx)

	t := <-el.events
	if !t.Leading {
		fmt.Println("standing by:", t.Reason)
		return
	}
	n := reconcileAsLeader(ctx, []string{"deploy/web", "deploy/api", "", "ds/node-exporter"})
	fmt.Println("leader node-a reconciled", n, "objects")
}
