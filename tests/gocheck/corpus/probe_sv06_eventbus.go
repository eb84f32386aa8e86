// want: global-deadlock
// source: written for chanfuzz as a held-out probe of service-like programs (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: An event bus keeping subscribers in a map under an RWMutex; Emit holds the read lock while it hands each event
//   to a subscriber's goroutine, and the audit handler unsubscribes itself (write lock) on "logout": if main's next Emit
//   takes the read lock first, main waits for the audit goroutine, which waits for the lock.

package main

import (
	"fmt"
	"sync"
)

type Event struct {
	Topic string
	User  string
}

// Handler reacts to events; each subscription runs its handler on its own goroutine.
type Handler interface {
	Name() string
	Handle(e Event)
}

type subscription struct {
	id int
	h  Handler
	ch chan Event
}

type Bus struct {
	mu     sync.RWMutex
	subs   map[string]map[int]*subscription
	nextID int
	wg     sync.WaitGroup
}

func NewBus() *Bus {
	return &Bus{subs: make(map[string]map[int]*subscription)}
}

// Subscribe registers h for topic and returns a function that unsubscribes it.
func (b *Bus) Subscribe(topic string, h Handler) (unsubscribe func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextID++
	s := &subscription{id: b.nextID, h: h, ch: make(chan Event)}
	if b.subs[topic] == nil {
		b.subs[topic] = make(map[int]*subscription)
	}
	b.subs[topic][s.id] = s
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for e := range s.ch {
			s.h.Handle(e)
		}
	}()
	return func() { b.unsubscribe(topic, s.id) }
}

func (b *Bus) unsubscribe(topic string, id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s, ok := b.subs[topic][id]; ok {
		delete(b.subs[topic], id)
		close(s.ch)
	}
}

// Emit delivers e to every subscriber of its topic, in turn.
func (b *Bus) Emit(e Event) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := 0
	for _, s := range b.subs[e.Topic] {
		s.ch <- e
		n++
	}
	return n
}

// Close unsubscribes everybody and waits for the handler goroutines.
func (b *Bus) Close() {
	b.mu.Lock()
	for topic, m := range b.subs {
		for id, s := range m {
			close(s.ch)
			delete(m, id)
		}
		delete(b.subs, topic)
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// metrics counts events per user.
type metrics struct {
	mu     sync.Mutex
	counts map[string]int
}

func (m *metrics) Name() string { return "metrics" }

func (m *metrics) Handle(e Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[e.User]++
}

func (m *metrics) Get(user string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts[user]
}

// auditLog records a session and stops listening once the user logs out.
type auditLog struct {
	mu     sync.Mutex
	lines  []string
	cancel func()
}

func (a *auditLog) Name() string { return "audit" }

func (a *auditLog) Handle(e Event) {
	a.mu.Lock()
	a.lines = append(a.lines, e.User+" "+e.Topic)
	a.mu.Unlock()
	if e.Topic == "session" && e.User == "logout:alice" {
		a.cancel()
	}
}

func (a *auditLog) Lines() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.lines)
}

func main() {
	bus := NewBus()
	m := &metrics{counts: make(map[string]int)}
	bus.Subscribe("session", m)
	audit := &auditLog{}
	audit.cancel = bus.Subscribe("session", audit)

	for _, user := range []string{"login:alice", "logout:alice", "login:bob"} {
		n := bus.Emit(Event{Topic: "session", User: user})
		fmt.Println("emitted", user, "to", n, "handler(s)")
	}

	bus.Close()
	fmt.Println("audit lines:", audit.Lines(), "bob events:", m.Get("login:bob"))
}
