// want: channel-safety
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a generic Queue[T] whose Push selects on done and on the send; Close closes both done and
//   items, and a Push racing with Close can pick the send case on the closed items channel (panic).

package main

import (
	"fmt"
	"sync"
)

type Queue[T any] struct {
	items chan T
	done  chan struct{}
}

func NewQueue[T any](n int) *Queue[T] {
	return &Queue[T]{items: make(chan T, n), done: make(chan struct{})}
}

// Push reports false once the queue is closed.
func (q *Queue[T]) Push(v T) bool {
	select {
	case <-q.done:
		return false
	case q.items <- v:
		return true
	}
}

func (q *Queue[T]) Close() {
	close(q.done)
	close(q.items)
}

func main() {
	q := NewQueue[string](4)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			if !q.Push(fmt.Sprintf("job-%d", i)) {
				fmt.Println("dropped job", i)
			}
		})
	}
	q.Close()
	for v := range q.items {
		fmt.Println("drained", v)
	}
	wg.Wait()
}
