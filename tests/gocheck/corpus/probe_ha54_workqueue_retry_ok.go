// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of client-go's workqueue (dirty/processing sets, sync.Cond Get, requeue on error)
// what: workers Get keys from a Cond-based queue, requeue keys whose sync fails until they succeed,
//   and exit once ShutDown broadcasts; main waits for every key to succeed, then shuts down and joins the workers.
package main

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

type Queue struct {
	mu           sync.Mutex
	cond         *sync.Cond
	queue        []string
	dirty        map[string]bool
	processing   map[string]bool
	retries      map[string]int
	shuttingDown bool
}

func NewQueue() *Queue {
	q := &Queue{dirty: map[string]bool{}, processing: map[string]bool{}, retries: map[string]int{}}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Add(key string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown || q.dirty[key] {
		return
	}
	q.dirty[key] = true
	if q.processing[key] {
		return // re-queued by Done
	}
	q.queue = append(q.queue, key)
	q.cond.Signal()
}

func (q *Queue) AddRateLimited(key string) {
	q.mu.Lock()
	q.retries[key]++
	q.mu.Unlock()
	q.Add(key)
}

func (q *Queue) Get() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.queue) == 0 {
		return "", true
	}
	key := q.queue[0]
	q.queue = q.queue[1:]
	q.processing[key] = true
	delete(q.dirty, key)
	return key, false
}

func (q *Queue) Done(key string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.processing, key)
	if q.dirty[key] {
		q.queue = append(q.queue, key)
		q.cond.Signal()
	}
}

func (q *Queue) ShutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shuttingDown = true
	q.cond.Broadcast()
}

var errConflict = errors.New("409 conflict: object has been modified")

type reconciler struct {
	mu       sync.Mutex
	attempts map[string]int
	pending  sync.WaitGroup
}

func (r *reconciler) sync(key string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts[key]++
	if key == "default/flaky" && r.attempts[key] < 3 {
		return errConflict
	}
	return nil
}

func (r *reconciler) worker(q *Queue, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		key, shutdown := q.Get()
		if shutdown {
			return
		}
		if err := r.sync(key); err != nil {
			q.AddRateLimited(key)
		} else {
			r.pending.Done()
		}
		q.Done(key)
	}
}

func main() {
	q := NewQueue()
	r := &reconciler{attempts: map[string]int{}}
	keys := []string{"default/web", "default/flaky", "kube-system/coredns", "default/api"}
	r.pending.Add(len(keys))
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go r.worker(q, &wg)
	}
	for _, k := range keys {
		q.Add(k)
	}
	r.pending.Wait()
	q.ShutDown()
	wg.Wait()
	names := make([]string, 0, len(r.attempts))
	for k, n := range r.attempts {
		names = append(names, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(names)
	fmt.Println(names, "retries:", q.retries)
}
