// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of an event bus owned by one goroutine (subscribe/unsubscribe/publish as messages)
// what: a single loop goroutine owns the subscriber map and is the only one to close subscriber
//   channels; every client call also selects on the bus's done channel, and Close joins the loop and the consumers.
package main

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

type Message struct {
	Topic string
	Body  string
}

type subscription struct {
	id int
	ch <-chan Message
}

type Bus struct {
	subscribe   chan chan subscription
	unsubscribe chan int
	publish     chan Message
	quit        chan struct{}
	done        chan struct{}
	closeOnce   sync.Once
}

var ErrClosed = errors.New("bus closed")

func NewBus() *Bus {
	b := &Bus{
		subscribe:   make(chan chan subscription),
		unsubscribe: make(chan int),
		publish:     make(chan Message),
		quit:        make(chan struct{}),
		done:        make(chan struct{}),
	}
	go b.loop()
	return b
}

func (b *Bus) loop() {
	defer close(b.done)
	subs := map[int]chan Message{}
	nextID := 0
	for {
		select {
		case reply := <-b.subscribe:
			nextID++
			ch := make(chan Message, 16)
			subs[nextID] = ch
			reply <- subscription{id: nextID, ch: ch}
		case id := <-b.unsubscribe:
			if ch, ok := subs[id]; ok {
				close(ch)
				delete(subs, id)
			}
		case m := <-b.publish:
			for _, ch := range subs {
				select {
				case ch <- m:
				default: // slow subscriber: drop
				}
			}
		case <-b.quit:
			for id, ch := range subs {
				close(ch)
				delete(subs, id)
			}
			return
		}
	}
}

func (b *Bus) Subscribe() (subscription, error) {
	reply := make(chan subscription, 1)
	select {
	case b.subscribe <- reply:
		return <-reply, nil
	case <-b.done:
		return subscription{}, ErrClosed
	}
}

func (b *Bus) Unsubscribe(id int) {
	select {
	case b.unsubscribe <- id:
	case <-b.done:
	}
}

func (b *Bus) Publish(m Message) error {
	select {
	case b.publish <- m:
		return nil
	case <-b.done:
		return ErrClosed
	}
}

func (b *Bus) Close() {
	b.closeOnce.Do(func() { close(b.quit) })
	<-b.done
}

func main() {
	b := NewBus()
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	var ids []int
	for _, name := range []string{"audit", "metrics", "slack"} {
		s, err := b.Subscribe()
		if err != nil {
			fmt.Println(err)
			return
		}
		ids = append(ids, s.id)
		wg.Add(1)
		go func(name string, ch <-chan Message) {
			defer wg.Done()
			for m := range ch {
				mu.Lock()
				counts[name+":"+m.Topic]++
				mu.Unlock()
			}
		}(name, s.ch)
	}
	for i, topic := range []string{"build", "deploy", "build", "alert"} {
		_ = b.Publish(Message{Topic: topic, Body: fmt.Sprint("event-", i)})
	}
	b.Unsubscribe(ids[2])
	_ = b.Publish(Message{Topic: "deploy", Body: "rollback"})
	b.Close()
	b.Close()
	if err := b.Publish(Message{Topic: "late"}); err != nil {
		fmt.Println("late publish:", err)
	}
	wg.Wait()
	keys := make([]string, 0, len(counts))
	for k, v := range counts {
		keys = append(keys, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(keys)
	fmt.Println(keys)
}
