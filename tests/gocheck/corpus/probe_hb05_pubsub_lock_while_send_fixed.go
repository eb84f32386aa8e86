// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb05: Unsubscribe() first closes the subscriber's quit channel
//   (without the lock), and Publish() selects between the send and quit

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

func (b *broker) Unsubscribe(id int, s *subscriber) {
	close(s.quit)
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, id)
}

func (b *broker) Publish(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		select {
		case s.ch <- v:
		case <-s.quit:
		}
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
		b.Unsubscribe(id, s)
	}()
	for i := 0; i < 2; i++ {
		b.Publish(i)
	}
	wg.Wait()
}
