// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (moby-style) a sync.Cond-based queue: consumers wait while the queue is empty, but the
//   wait loop does not look at the closed flag; Close() sets closed and broadcasts, and a
//   consumer that finds the queue empty goes back to sleep for ever; main blocks in wg.Wait

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

func (q *queue) Put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// Get returns false once the queue is closed and drained.
func (q *queue) Get() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 { // BUG: ignores q.closed
		q.cond.Wait()
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func main() {
	q := newQueue()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			v, ok := q.Get()
			if !ok {
				return
			}
			fmt.Println("got", v)
		}
	}()
	q.Put(1)
	q.Put(2)
	q.Close()
	wg.Wait()
}
