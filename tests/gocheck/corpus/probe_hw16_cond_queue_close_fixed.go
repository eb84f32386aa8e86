// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a bounded blocking queue built on sync.Cond (producer/consumer)
// what: Close broadcasts on notEmpty after setting closed, so a consumer waiting in Pop wakes,
//   sees the closed empty queue and returns; wg.Wait then ends
package main

import (
	"fmt"
	"sync"
)

type Queue struct {
	mu       sync.Mutex
	notEmpty *sync.Cond
	notFull  *sync.Cond
	items    []int
	cap      int
	closed   bool
}

func NewQueue(n int) *Queue {
	q := &Queue{cap: n}
	q.notEmpty = sync.NewCond(&q.mu)
	q.notFull = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Push(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == q.cap {
		q.notFull.Wait()
	}
	q.items = append(q.items, v)
	q.notEmpty.Signal()
}

func (q *Queue) Pop() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.notEmpty.Wait()
	}
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.notFull.Signal()
	return v, true
}

func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.notEmpty.Broadcast()
	q.mu.Unlock()
}

func main() {
	q := NewQueue(1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			v, ok := q.Pop()
			if !ok {
				return
			}
			fmt.Println("got", v)
		}
	}()
	q.Push(1)
	q.Push(2)
	q.Close()
	wg.Wait()
}
