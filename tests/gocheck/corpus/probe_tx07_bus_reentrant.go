// want: global-deadlock
// source: an event bus that runs handlers under its lock, as reported against several Go event-bus packages, written for this set
// what: Emit holds the bus mutex while calling handlers; a "once" handler that
//   unregisters itself calls Off, which locks the same mutex again.

package eventbus

import (
	"sync"
	"testing"
)

type Handler func(topic string, payload any)

type Bus struct {
	mu       sync.Mutex
	handlers map[string]map[int]Handler
	nextID   int
}

func New() *Bus { return &Bus{handlers: map[string]map[int]Handler{}} }

func (b *Bus) On(topic string, h Handler) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextID++
	if b.handlers[topic] == nil {
		b.handlers[topic] = map[int]Handler{}
	}
	b.handlers[topic][b.nextID] = h
	return b.nextID
}

func (b *Bus) Off(topic string, id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.handlers[topic], id)
}

// Once registers h to run for the next event only.
func (b *Bus) Once(topic string, h Handler) {
	var id int
	id = b.On(topic, func(tp string, p any) {
		b.Off(tp, id)
		h(tp, p)
	})
}

func (b *Bus) Emit(topic string, payload any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, h := range b.handlers[topic] {
		h(topic, payload)
	}
}

func TestBusOn(t *testing.T) {
	b := New()
	got := 0
	b.On("n", func(_ string, p any) { got += p.(int) })
	b.Emit("n", 2)
	b.Emit("n", 3)
	if got != 5 {
		t.Fatalf("got %d, want 5", got)
	}
}

func TestBusOnce(t *testing.T) {
	b := New()
	calls := 0
	b.Once("ready", func(string, any) { calls++ })
	b.Emit("ready", nil)
	b.Emit("ready", nil)
	if calls != 1 {
		t.Fatalf("calls = %d, want 1", calls)
	}
}
