// want: ok
// source: written for chanfuzz as a held-out probe of service-like programs (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: The pub/sub broker of probe_sv01_broker.go fixed: Close (once) closes a quit channel the run loop
//   and every Publish select on, so a late Publish returns ErrClosed instead of sending on a closed channel.

package main

import (
	"errors"
	"fmt"
	"sync"
)

var (
	ErrEmptyTopic = errors.New("broker: empty topic")
	ErrClosed     = errors.New("broker: closed")
)

type Message struct {
	Topic   string
	Payload int
}

// Subscription is what a client of the broker holds.
type Subscription interface {
	C() <-chan Message
	Topic() string
}

type subscription struct {
	id    int
	topic string
	ch    chan Message
}

func (s *subscription) C() <-chan Message { return s.ch }
func (s *subscription) Topic() string     { return s.topic }

type Stats struct {
	Published int
	Delivered int
	Dropped   int
}

type Broker struct {
	mu      sync.Mutex
	subs    map[string][]*subscription
	nextID  int
	stats   Stats
	publish chan Message
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once
}

func NewBroker() *Broker {
	return &Broker{
		subs:    make(map[string][]*subscription),
		publish: make(chan Message),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
}

func (b *Broker) Start() {
	go b.run()
}

func (b *Broker) run() {
	defer close(b.done)
	for {
		select {
		case m := <-b.publish:
			b.dispatch(m)
		case <-b.quit:
			b.closeAll()
			return
		}
	}
}

func (b *Broker) dispatch(m Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Published++
	for _, s := range b.subs[m.Topic] {
		select {
		case s.ch <- m:
			b.stats.Delivered++
		default:
			b.stats.Dropped++
		}
	}
}

// closeAll tells every remaining subscriber that the broker is gone.
func (b *Broker) closeAll() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, list := range b.subs {
		for _, s := range list {
			close(s.ch)
		}
	}
	b.subs = nil
}

func (b *Broker) Subscribe(topic string, buf int) Subscription {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextID++
	s := &subscription{id: b.nextID, topic: topic, ch: make(chan Message, buf)}
	b.subs[topic] = append(b.subs[topic], s)
	return s
}

func (b *Broker) Unsubscribe(sub Subscription) {
	s, ok := sub.(*subscription)
	if !ok {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	list := b.subs[s.topic]
	for i, x := range list {
		if x.id == s.id {
			b.subs[s.topic] = append(list[:i], list[i+1:]...)
			close(s.ch)
			return
		}
	}
}

func (b *Broker) Publish(m Message) error {
	if m.Topic == "" {
		return ErrEmptyTopic
	}
	select {
	case b.publish <- m:
		return nil
	case <-b.quit:
		return ErrClosed
	}
}

// Close stops the run loop and waits for it to close the subscriptions.
func (b *Broker) Close() {
	b.once.Do(func() { close(b.quit) })
	<-b.done
}

func (b *Broker) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

func main() {
	b := NewBroker()
	b.Start()

	orders := b.Subscribe("orders", 4)
	audit := b.Subscribe("audit", 1)

	var handlers sync.WaitGroup
	handlers.Add(1)
	go func() { // an incoming request that publishes two order events
		defer handlers.Done()
		for i := 1; i <= 2; i++ {
			if err := b.Publish(Message{Topic: "orders", Payload: i}); err != nil {
				fmt.Println("publish:", err)
				return
			}
		}
	}()

	first := <-orders.C()
	fmt.Println("first order:", first.Payload)

	b.Unsubscribe(audit)
	b.Close()
	handlers.Wait()

	for m := range orders.C() {
		fmt.Println("drained order:", m.Payload)
	}
	st := b.Stats()
	fmt.Println("published", st.Published, "delivered", st.Delivered, "dropped", st.Dropped)
}
