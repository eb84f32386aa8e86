// want: ok
// source: a pub/sub broker with Unsubscribe, a common pattern in Go event libraries, written for this set
// what: each subscription owns a done channel that Unsubscribe closes; pending
//   deliveries select on it, and Close waits for every delivery goroutine.

package broker

import (
	"sync"
	"testing"
	"time"
)

type sub struct {
	ch   chan string
	done chan struct{}
}

type Broker struct {
	mu       sync.Mutex
	subs     map[int]*sub
	next     int
	inflight sync.WaitGroup
}

func New() *Broker { return &Broker{subs: map[int]*sub{}} }

func (b *Broker) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	s := &sub{ch: make(chan string), done: make(chan struct{})}
	b.subs[b.next] = s
	return b.next, s.ch
}

func (b *Broker) Unsubscribe(id int) {
	b.mu.Lock()
	s, ok := b.subs[id]
	delete(b.subs, id)
	b.mu.Unlock()
	if ok {
		close(s.done)
	}
}

func (b *Broker) Publish(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		b.inflight.Add(1)
		go func(s *sub) {
			defer b.inflight.Done()
			select {
			case s.ch <- msg:
			case <-s.done:
			}
		}(s)
	}
}

// Close unsubscribes everyone and waits for pending deliveries.
func (b *Broker) Close() {
	b.mu.Lock()
	ids := make([]int, 0, len(b.subs))
	for id := range b.subs {
		ids = append(ids, id)
	}
	b.mu.Unlock()
	for _, id := range ids {
		b.Unsubscribe(id)
	}
	b.inflight.Wait()
}

func TestBrokerUnsubscribe(t *testing.T) {
	b := New()
	t.Cleanup(b.Close)
	id, ch := b.Subscribe()
	b.Publish("hello")
	select {
	case got := <-ch:
		if got != "hello" {
			t.Fatalf("got %q", got)
		}
	case <-time.After(time.Second):
		t.Fatal("no message")
	}
	b.Publish("bye")
	b.Unsubscribe(id)
	b.Publish("ignored")
}

func TestBrokerFanOut(t *testing.T) {
	b := New()
	t.Cleanup(b.Close)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		_, ch := b.Subscribe()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := <-ch; got != "x" {
				t.Errorf("got %q", got)
			}
		}()
	}
	b.Publish("x")
	wg.Wait()
}
