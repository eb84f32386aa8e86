// want: ok
// source: written for chanfuzz as a held-out probe of service-like programs (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: A leader-election simulator: two electors poll a lease store on tickers, the leader runs a controller under a
//   child context, renews twice and steps down; every wait also selects on the (timed-out or cancelled) context, so all exit.

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// LeaseStore is the shared lock object the candidates compete for.
type LeaseStore interface {
	TryAcquire(id string) bool
	Renew(id string) bool
	Release(id string)
	Holder() string
}

type memStore struct {
	mu         sync.Mutex
	holder     string
	reconciled []string
}

func (s *memStore) TryAcquire(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holder == "" || s.holder == id {
		s.holder = id
		return true
	}
	return false
}

func (s *memStore) Renew(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holder == id
}

func (s *memStore) Release(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holder == id {
		s.holder = ""
	}
}

func (s *memStore) Holder() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holder
}

func (s *memStore) markReconciled(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reconciled = append(s.reconciled, id)
}

type Event struct {
	Candidate string
	Kind      string // "elected", "lost", "stepped-down"
}

type Elector struct {
	id       string
	store    *memStore
	retry    time.Duration
	maxTerms int
	events   chan<- Event
}

func (e *Elector) notify(ctx context.Context, kind string) {
	select {
	case e.events <- Event{Candidate: e.id, Kind: kind}:
	case <-ctx.Done():
	}
}

// controller is the leader-only work: reconcile once, then idle until leadership ends.
func (e *Elector) controller(leadCtx context.Context, done chan<- struct{}) {
	defer close(done)
	e.store.markReconciled(e.id)
	<-leadCtx.Done()
}

func (e *Elector) Run(ctx context.Context) {
	t := time.NewTicker(e.retry)
	defer t.Stop()

	for !e.store.TryAcquire(e.id) {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}

	leadCtx, stopLeading := context.WithCancel(ctx)
	ctrlDone := make(chan struct{})
	go e.controller(leadCtx, ctrlDone)
	e.notify(ctx, "elected")

	kind := "stepped-down"
	for term := 0; term < e.maxTerms; term++ {
		select {
		case <-ctx.Done():
			term = e.maxTerms
			kind = ""
		case <-t.C:
			if !e.store.Renew(e.id) {
				term = e.maxTerms
				kind = "lost"
			}
		}
	}
	stopLeading()
	<-ctrlDone // stop the work before giving the lease away
	e.store.Release(e.id)
	if kind != "" {
		e.notify(ctx, kind)
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()

	store := &memStore{}
	events := make(chan Event)
	var wg sync.WaitGroup
	for _, id := range []string{"node-a", "node-b"} {
		e := &Elector{id: id, store: store, retry: 5 * time.Millisecond, maxTerms: 2, events: events}
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.Run(ctx)
		}()
	}

	elected := 0
wait:
	for elected < 2 {
		select {
		case ev := <-events:
			fmt.Println(ev.Candidate, ev.Kind)
			if ev.Kind == "elected" {
				elected++
			}
		case <-ctx.Done():
			fmt.Println("timed out:", ctx.Err())
			break wait
		}
	}
	cancel()
	wg.Wait()
	fmt.Println("holder after shutdown:", store.Holder() == "", "leaders:", len(store.reconciled))
}
