// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Mutexes" combined with "Channels" (a mutex-guarded subscriber list that publishes on unbuffered channels)
// what: Publish holds n.mu while it sends each message on the subscribers' unbuffered channels;
//   a subscriber, after each message, calls n.Count(), which needs n.mu. When main publishes the
//   next message it takes the lock again and blocks sending to a subscriber that is itself
//   blocked in Count waiting for the lock: main and both subscribers are asleep for ever.

package main

import (
	"fmt"
	"sync"
)

type Notifier struct {
	mu   sync.Mutex
	subs []chan string
	sent int
}

func (n *Notifier) Subscribe() <-chan string {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := make(chan string)
	n.subs = append(n.subs, c)
	return c
}

func (n *Notifier) Count() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.sent
}

func (n *Notifier) Publish(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range n.subs {
		c <- msg
	}
	n.sent++
}

func (n *Notifier) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range n.subs {
		close(c)
	}
}

func main() {
	var n Notifier
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		c := n.Subscribe()
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			for msg := range c {
				fmt.Printf("subscriber %d got %q (%d sent so far)\n", id, msg, n.Count())
			}
		}(i)
	}
	for i := 0; i < 20; i++ {
		n.Publish(fmt.Sprintf("event %d", i))
	}
	n.Close()
	wg.Wait()
}
