// want: partial-deadlock
// source: a pub/sub broker with Unsubscribe, a common pattern in Go event libraries, written for this set
// what: Publish delivers on a goroutine per subscriber over an unbuffered channel;
//   after Unsubscribe the test stops reading, so the pending delivery blocks for ever.

package broker

import (
	"sync"
	"testing"
	"time"
)

type Broker struct {
	mu   sync.Mutex
	subs map[int]chan string
	next int
}

func New() *Broker { return &Broker{subs: map[int]chan string{}} }

func (b *Broker) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	ch := make(chan string)
	b.subs[b.next] = ch
	return b.next, ch
}

func (b *Broker) Unsubscribe(id int) {
	b.mu.Lock()
	delete(b.subs, id)
	b.mu.Unlock()
}

// Publish fans msg out without blocking the caller.
func (b *Broker) Publish(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		go func(ch chan string) { ch <- msg }(ch)
	}
}

func TestBrokerUnsubscribe(t *testing.T) {
	b := New()
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
	// The second publish is in flight when we unsubscribe; nobody reads it.
	b.Publish("bye")
	b.Unsubscribe(id)
	b.Publish("ignored")
}

func TestBrokerFanOut(t *testing.T) {
	b := New()
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
