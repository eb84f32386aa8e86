// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on generic pub/sub Broadcaster[T] helpers that drop slow subscribers
// what: Publish holds b.mu (locked through the lock() helper that returns the b.mu.Unlock method
//   value) and, on a full subscriber, calls the exported Unsubscribe, which locks b.mu again;
//   sync.Mutex is not reentrant, so main blocks for ever while the consumer waits on its channel.

package main

import (
	"fmt"
	"sync"
)

type Broadcaster[T any] struct {
	mu   sync.Mutex
	subs map[int]chan T
	next int
}

func NewBroadcaster[T any]() *Broadcaster[T] {
	return &Broadcaster[T]{subs: make(map[int]chan T)}
}

func (b *Broadcaster[T]) lock() func() {
	b.mu.Lock()
	return b.mu.Unlock
}

func (b *Broadcaster[T]) Subscribe(buf int) (int, <-chan T) {
	defer b.lock()()
	id := b.next
	b.next++
	ch := make(chan T, buf)
	b.subs[id] = ch
	return id, ch
}

func (b *Broadcaster[T]) Unsubscribe(id int) {
	defer b.lock()()
	if ch, ok := b.subs[id]; ok {
		delete(b.subs, id)
		close(ch)
	}
}

func (b *Broadcaster[T]) Publish(v T) {
	defer b.lock()()
	for id, ch := range b.subs {
		select {
		case ch <- v:
		default:
			b.Unsubscribe(id) // BUG: re-locks b.mu, already held by Publish
		}
	}
}

func (b *Broadcaster[T]) Close() {
	defer b.lock()()
	for id, ch := range b.subs {
		delete(b.subs, id)
		close(ch)
	}
}

type tick struct {
	seq int
	msg string
}

func main() {
	b := NewBroadcaster[tick]()
	_, fast := b.Subscribe(4)
	_, slow := b.Subscribe(1) // never read: gets dropped once full
	_ = slow

	done := make(chan int)
	go func() {
		n := 0
		for range fast {
			n++
		}
		done <- n
	}()

	for i := range 3 {
		b.Publish(tick{seq: i, msg: "update"})
	}
	b.Close()
	fmt.Println("fast subscriber got", <-done)
}
