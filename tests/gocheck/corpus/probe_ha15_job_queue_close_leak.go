// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a sync.Cond-based blocking job queue (a la Kubernetes' workqueue Get)
// what: Close sets the closed flag and broadcasts, but Get's wait loop only checks for queued items,
//   so once the queue is drained and closed the consumers go straight back to cond.Wait for ever.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type Queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []string
	closed bool
}

func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Put(item string) {
	q.mu.Lock()
	q.items = append(q.items, item)
	q.mu.Unlock()
	q.cond.Signal()
}

// Get blocks until an item is available; ok is false once the queue is closed and empty.
func (q *Queue) Get() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.cond.Wait()
	}
	if q.closed && len(q.items) == 0 {
		return "", false
	}
	item := q.items[0]
	q.items = q.items[1:]
	return item, true
}

func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func consumer(name string, q *Queue, done chan<- string) {
	for {
		job, ok := q.Get()
		if !ok {
			return
		}
		done <- name + ":" + strings.ToUpper(job)
	}
}

func main() {
	q := NewQueue()
	done := make(chan string)
	for _, name := range []string{"c1", "c2"} {
		go consumer(name, q, done)
	}
	jobs := []string{"resize", "thumbnail", "watermark", "upload"}
	for _, j := range jobs {
		q.Put(j)
	}
	processed := make([]string, 0, len(jobs))
	for range jobs {
		processed = append(processed, <-done)
	}
	q.Close()
	fmt.Println(len(processed), "jobs processed")
}
