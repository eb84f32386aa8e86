// want: global-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a sync.Cond-based queue with two consumers; close sets the flag but wakes waiters with Signal,
//   so when both consumers are waiting on an empty queue one of them sleeps for ever and main's wg.Wait with it.

package main

import (
	"fmt"
	"sync"
)

type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []int
	closed bool
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Signal() // BUG: every waiter must learn about the close: Broadcast
}

func (q *queue) get() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func main() {
	q := newQueue()
	var wg sync.WaitGroup
	for id := 1; id <= 2; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				v, ok := q.get()
				if !ok {
					return
				}
				fmt.Println("consumer", id, "got", v)
			}
		}()
	}
	q.put(1)
	q.put(2)
	q.close()
	wg.Wait()
}
