// want: global-deadlock
// source: "holding a mutex while sending on a channel" bug pattern (pub/sub brokers in Go projects)
// what: Publish holds the broker lock while sending a batch to each subscriber's unbuffered channel; the
//   subscriber's handler calls broker.Topics(), which needs the same lock, before it receives again.
package main

import (
	"fmt"
	"sync"
)

type broker struct {
	mu     sync.Mutex
	subs   []chan string
	topics map[string]int
}

func (b *broker) Subscribe() <-chan string {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan string)
	b.subs = append(b.subs, ch)
	return ch
}

func (b *broker) Publish(topic string, msgs ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.topics[topic]++
	for _, msg := range msgs {
		for _, ch := range b.subs {
			ch <- topic + ": " + msg
		}
	}
}

func (b *broker) Topics() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.topics)
}

func main() {
	b := &broker{topics: map[string]int{}}
	msgs := b.Subscribe()
	go func() {
		for m := range msgs {
			fmt.Printf("got %q (%d topics known)\n", m, b.Topics())
		}
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.Publish("news", "item 1", "item 2", "item 3")
		b.Publish("sport", "score")
	}()
	wg.Wait()
}
