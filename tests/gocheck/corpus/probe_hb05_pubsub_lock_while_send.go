// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (etcd/consul-style) Publish() holds the broker lock while sending on each subscriber's
//   unbuffered channel; the subscriber, after one event, calls Unsubscribe(), which needs the
//   lock, while Publish of the second event waits for it to receive (interleaving-dependent)

package main

import (
	"fmt"
	"sync"
)

type subscriber struct {
	ch   chan int
	quit chan struct{}
}

type broker struct {
	mu   sync.Mutex
	subs map[int]*subscriber
	next int
}

func (b *broker) Subscribe() (int, *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	s := &subscriber{ch: make(chan int), quit: make(chan struct{})}
	b.subs[id] = s
	return id, s
}

func (b *broker) Unsubscribe(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *broker) Publish(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		s.ch <- v // BUG: blocking send with the lock held
	}
}

func main() {
	b := &broker{subs: make(map[int]*subscriber)}
	id, s := b.Subscribe()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		v := <-s.ch
		fmt.Println("got", v)
		b.Unsubscribe(id)
	}()
	for i := 0; i < 2; i++ {
		b.Publish(i)
	}
	wg.Wait()
}
