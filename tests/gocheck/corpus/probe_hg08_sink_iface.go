// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on event dispatchers with pluggable sinks (handlers map[string][]Sink)
// what: the audit sink is registered for every topic, but its reader only consumes the number of
//   order events; Publish delivers asynchronously with `go s.Emit(e)` (an interface method value),
//   and for the chanSink dynamic type Emit blocks on an unbuffered send, so one delivery
//   goroutine is stuck for ever when main returns (memSink deliveries never block).

package main

import (
	"fmt"
	"sync"
)

type Event struct {
	Topic string
	ID    int
}

type Sink interface {
	Emit(e Event)
}

type memSink struct {
	mu     sync.Mutex
	events []Event
}

func (m *memSink) Emit(e Event) {
	m.mu.Lock()
	m.events = append(m.events, e)
	m.mu.Unlock()
}

type chanSink struct{ ch chan Event }

func (c chanSink) Emit(e Event) { c.ch <- e }

type Dispatcher struct {
	handlers map[string][]Sink
}

func (d *Dispatcher) Register(topic string, s Sink) {
	d.handlers[topic] = append(d.handlers[topic], s)
}

func (d *Dispatcher) Publish(e Event) {
	for _, s := range d.handlers[e.Topic] {
		go s.Emit(e) // async delivery
	}
}

func main() {
	d := &Dispatcher{handlers: make(map[string][]Sink)}
	store := &memSink{}
	audit := chanSink{ch: make(chan Event)}
	topics := []string{"orders", "refunds"}
	for _, t := range topics {
		d.Register(t, store)
		d.Register(t, audit) // BUG: auditor below only expects orders
	}

	events := []Event{{"orders", 1}, {"refunds", 2}, {"orders", 3}}
	expected := 0
	for _, e := range events {
		if e.Topic == "orders" {
			expected++
		}
	}
	done := make(chan []int)
	go func() {
		var ids []int
		for range expected {
			ids = append(ids, (<-audit.ch).ID)
		}
		done <- ids
	}()

	for _, e := range events {
		d.Publish(e)
	}
	fmt.Println("audited", len(<-done), "events")
}
