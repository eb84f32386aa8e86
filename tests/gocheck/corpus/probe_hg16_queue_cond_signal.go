// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on generic blocking queues built on sync.Cond (Queue[T] with Close)
// what: Close wakes waiters with Signal instead of Broadcast; with two consumers parked in Pop on
//   an empty queue only one wakes and sees closed, the other waits on the Cond for ever while
//   main (which only waits for the first consumer to report) returns.

package main

import (
	"fmt"
	"sync"
	"time"
)

type Queue[T any] struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []T
	closed bool
}

func NewQueue[T any]() *Queue[T] {
	q := &Queue[T]{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue[T]) Push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *Queue[T]) Pop() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	var zero T
	if len(q.items) == 0 {
		return zero, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func (q *Queue[T]) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Signal() // BUG: should be Broadcast
}

func main() {
	q := NewQueue[int]()
	stats := make(chan int, 2)
	for range 2 {
		go func() {
			n := 0
			for {
				if _, ok := q.Pop(); !ok {
					break
				}
				n++
			}
			stats <- n
		}()
	}
	q.Push(1)
	time.Sleep(time.Millisecond) // widens the window: both consumers park in Pop
	q.Close()
	fmt.Println("first consumer handled", <-stats)
}
