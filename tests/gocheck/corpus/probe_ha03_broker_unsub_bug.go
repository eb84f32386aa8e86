// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of an in-process pub/sub event broker (Docker events / NATS-like)
// what: Unsubscribe closes the subscriber's channel but leaves the subscriber in the topic list, so
//   the next Publish on that topic sends on the closed channel.
package main

import (
	"fmt"
	"sync"
)

type Event struct {
	Topic   string
	Seq     int
	Payload string
}

type Subscriber struct {
	id    int
	topic string
	ch    chan Event
}

type Broker struct {
	mu     sync.RWMutex
	nextID int
	seq    int
	subs   map[string][]*Subscriber
}

func NewBroker() *Broker {
	return &Broker{subs: make(map[string][]*Subscriber)}
}

func (b *Broker) Subscribe(topic string, buf int) *Subscriber {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextID++
	s := &Subscriber{id: b.nextID, topic: topic, ch: make(chan Event, buf)}
	b.subs[topic] = append(b.subs[topic], s)
	return s
}

// Unsubscribe stops delivery to s and lets its consumer loop end.
func (b *Broker) Unsubscribe(s *Subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(s.ch)
}

func (b *Broker) Publish(topic, payload string) int {
	b.mu.Lock()
	b.seq++
	e := Event{Topic: topic, Seq: b.seq, Payload: payload}
	subs := b.subs[topic]
	b.mu.Unlock()
	for _, s := range subs {
		s.ch <- e
	}
	return len(subs)
}

func consume(name string, s *Subscriber, wg *sync.WaitGroup, mu *sync.Mutex, seen map[string]int) {
	defer wg.Done()
	for e := range s.ch {
		mu.Lock()
		seen[name] += len(e.Payload)
		mu.Unlock()
	}
}

func main() {
	b := NewBroker()
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := make(map[string]int)

	audit := b.Subscribe("deploys", 8)
	notifier := b.Subscribe("deploys", 8)
	wg.Add(2)
	go consume("audit", audit, &wg, &mu, seen)
	go consume("notifier", notifier, &wg, &mu, seen)

	b.Publish("deploys", "web v1.4.0")
	b.Publish("deploys", "api v2.0.1")
	b.Unsubscribe(notifier)
	n := b.Publish("deploys", "web v1.4.1")
	fmt.Println("delivered to", n, "subscribers")
	b.Unsubscribe(audit)
	wg.Wait()
	fmt.Println(seen)
}
