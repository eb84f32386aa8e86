// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an in-process event bus (pub/sub with Unsubscribe)
// what: Unsubscribe removes the subscriber under the lock and closes its channel, but Publish
//   copies the subscriber list, releases the lock and then sends, so it can send on the
//   channel Unsubscribe just closed
package main

import (
	"fmt"
	"sync"
	"time"
)

type Bus struct {
	mu   sync.Mutex
	subs map[int]chan string
	next int
}

func (b *Bus) Subscribe() (int, <-chan string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan string, 1)
	b.next++
	b.subs[b.next] = ch
	return b.next, ch
}

func (b *Bus) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ch, ok := b.subs[id]; ok {
		delete(b.subs, id)
		close(ch)
	}
}

func (b *Bus) Publish(msg string) {
	b.mu.Lock()
	targets := make([]chan string, 0, len(b.subs))
	for _, ch := range b.subs {
		targets = append(targets, ch)
	}
	b.mu.Unlock()
	time.Sleep(5 * time.Millisecond) // e.g. formatting/encoding the event
	for _, ch := range targets {
		select {
		case ch <- msg: // BUG: ch may be closed by now
		default:
		}
	}
}

func main() {
	b := &Bus{subs: map[int]chan string{}}
	id, ch := b.Subscribe()
	done := make(chan struct{})
	go func() {
		b.Publish("hello")
		close(done)
	}()
	time.Sleep(time.Millisecond)
	b.Unsubscribe(id)
	for m := range ch {
		fmt.Println(m)
	}
	<-done
}
