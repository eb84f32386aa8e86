// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an in-process event bus (pub/sub with Unsubscribe)
// what: Publish sends (non-blocking) while still holding the lock, so Unsubscribe cannot close
//   a subscriber's channel between the snapshot and the send
package main

import (
	"fmt"
	"sync"
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
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		select {
		case ch <- msg:
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
	b.Unsubscribe(id)
	for m := range ch {
		fmt.Println(m)
	}
	<-done
}
