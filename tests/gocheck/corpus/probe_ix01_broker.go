// want: partial-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a broker whose Unsubscribe returns while Publish is blocked sending to the removed subscriber's unbuffered channel

package broker

import (
	"sync"
	"testing"
)

type Broker struct {
	mu   sync.Mutex
	subs map[int]chan string
	next int
}

func NewBroker() *Broker { return &Broker{subs: map[int]chan string{}} }

func (b *Broker) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	ch := make(chan string)
	b.subs[id] = ch
	return id, ch
}

func (b *Broker) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *Broker) Publish(msg string) {
	b.mu.Lock()
	subs := make([]chan string, 0, len(b.subs))
	for _, ch := range b.subs {
		subs = append(subs, ch)
	}
	b.mu.Unlock()
	for _, ch := range subs {
		ch <- msg
	}
}

func TestPublish(t *testing.T) {
	b := NewBroker()
	id, ch := b.Subscribe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.Publish("hello")
		b.Publish("world")
	}()
	if got := <-ch; got != "hello" {
		t.Errorf("got %q", got)
	}
	b.Unsubscribe(id)
}
