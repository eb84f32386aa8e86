// want: ok
// source: "holding a mutex while sending on a channel" bug pattern, fixed
// what: Publish copies the subscriber list under the lock and sends after unlocking, so the
//   handler may call Topics(); Close closes the subscriptions and main waits for the drain.
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
	b.topics[topic]++
	subs := append([]chan string(nil), b.subs...)
	b.mu.Unlock()
	for _, msg := range msgs {
		for _, ch := range subs {
			ch <- topic + ": " + msg
		}
	}
}

func (b *broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		close(ch)
	}
	b.subs = nil
}

func (b *broker) Topics() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.topics)
}

func main() {
	b := &broker{topics: map[string]int{}}
	msgs := b.Subscribe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m := range msgs {
			fmt.Printf("got %q (%d topics known)\n", m, b.Topics())
		}
	}()
	b.Publish("news", "item 1", "item 2", "item 3")
	b.Publish("sport", "score")
	b.Close()
	<-done
}
