// want: ok
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on containerd events/exchange Subscribe + shim task-exit publishing
// what: fixed: the event channel is never closed; cancel closes a per-subscriber done channel
//
//	instead and Publish selects on it, so a late publisher just skips the gone subscriber.
//	The buffer of four holds every exit, so no publisher ever waits.
package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
)

type Envelope struct {
	Namespace string
	Topic     string
	Event     string
}

type subscriber struct {
	topic string
	ch    chan *Envelope
	done  chan struct{}
}

type Exchange struct {
	mu     sync.Mutex
	nextID int
	subs   map[int]*subscriber
}

func NewExchange() *Exchange { return &Exchange{subs: make(map[int]*subscriber)} }

func (e *Exchange) encode(ns, topic string, ev any) *Envelope {
	runtime.Gosched() // marshalling the event (typeurl.MarshalAny)
	return &Envelope{Namespace: ns, Topic: topic, Event: fmt.Sprint(ev)}
}

func (e *Exchange) Publish(ctx context.Context, topic string, ev any) error {
	e.mu.Lock()
	var targets []*subscriber
	for _, s := range e.subs {
		if s.topic == topic {
			targets = append(targets, s)
		}
	}
	e.mu.Unlock()
	for _, s := range targets {
		env := e.encode("default", topic, ev)
		select {
		case s.ch <- env:
		case <-s.done: // subscriber went away
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (e *Exchange) Subscribe(ctx context.Context, topic string) <-chan *Envelope {
	s := &subscriber{topic: topic, ch: make(chan *Envelope, 4), done: make(chan struct{})}
	e.mu.Lock()
	id := e.nextID
	e.nextID++
	e.subs[id] = s
	e.mu.Unlock()
	go func() {
		<-ctx.Done()
		e.mu.Lock()
		delete(e.subs, id)
		e.mu.Unlock()
		close(s.done)
	}()
	return s.ch
}

type shimTask struct {
	id       string
	exitCode int
}

func (t *shimTask) run(ctx context.Context, ex *Exchange, wg *sync.WaitGroup) {
	defer wg.Done()
	ex.Publish(ctx, "/tasks/exit", fmt.Sprintf("%s exited %d", t.id, t.exitCode))
}

func main() {
	ex := NewExchange()
	ctx, cancel := context.WithCancel(context.Background())
	events := ex.Subscribe(ctx, "/tasks/exit")

	var wg sync.WaitGroup
	tasks := []*shimTask{{id: "redis", exitCode: 0}, {id: "nginx", exitCode: 137}, {id: "etcd", exitCode: 1}}
	for _, t := range tasks {
		wg.Add(1)
		go t.run(context.Background(), ex, &wg)
	}
	// wait for the first task exit only, then drop the subscription
	env := <-events
	fmt.Println("first exit:", env.Event)
	cancel()
	wg.Wait()
}
