// want: ok
// source: a bounded blocking queue on sync.Cond, fixed version, written for this set
// what: Close broadcasts, so every consumer waiting in Get wakes, sees the
//   closed flag in its wait loop and returns ErrClosed.

package queue

import (
	"errors"
	"sync"
	"testing"
	"time"
)

var ErrClosed = errors.New("queue closed")

type Queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []int
	max     int
	closed  bool
	waiting int
}

func New(max int) *Queue {
	q := &Queue{max: max}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Put(v int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == q.max && !q.closed {
		q.cond.Wait()
	}
	if q.closed {
		return ErrClosed
	}
	q.items = append(q.items, v)
	q.cond.Broadcast()
	return nil
}

func (q *Queue) Get() (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.waiting++
		q.cond.Wait()
		q.waiting--
	}
	if len(q.items) == 0 {
		return 0, ErrClosed
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.cond.Broadcast()
	return v, nil
}

func (q *Queue) Waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waiting
}

func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func TestQueueCloseWakesConsumers(t *testing.T) {
	const consumers = 3
	q := New(2)
	var wg sync.WaitGroup
	for i := 0; i < consumers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := q.Get(); !errors.Is(err, ErrClosed) {
				t.Errorf("Get err = %v, want ErrClosed", err)
			}
		}()
	}
	for i := 0; i < 200 && q.Waiting() < consumers; i++ {
		time.Sleep(time.Millisecond)
	}
	q.Close()
	wg.Wait()
}

func TestQueueFIFO(t *testing.T) {
	q := New(2)
	go func() {
		for i := 1; i <= 4; i++ {
			if err := q.Put(i); err != nil {
				t.Errorf("Put: %v", err)
			}
		}
	}()
	for want := 1; want <= 4; want++ {
		got, err := q.Get()
		if err != nil || got != want {
			t.Fatalf("Get = %d, %v; want %d", got, err, want)
		}
	}
}
