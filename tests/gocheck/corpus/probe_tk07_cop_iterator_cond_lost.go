// want: global-deadlock
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: modelled on a tidb-style coprocessor iterator (kernel invented): Close waits for the 3
//   workers with a single cond.Wait instead of `for it.running > 0 { Wait }`; responses are
//   buffered, so the workers usually finish all 6 tasks and exit (the last one Broadcasts) before
//   the consumer has drained them: the wake-up is lost and Close waits for ever (interleaving-dependent)

package copr

import (
	"sync"
	"testing"
)

type copTask struct {
	region int
	keys   int
}

type copResponse struct {
	region int
	rows   int
}

type copIterator struct {
	mu      sync.Mutex
	cond    *sync.Cond
	running int
	tasks   chan *copTask
	respCh  chan *copResponse
	handled int
}

func newCopIterator(concurrency, pending int) *copIterator {
	it := &copIterator{
		running: concurrency,
		tasks:   make(chan *copTask),
		respCh:  make(chan *copResponse, pending),
	}
	it.cond = sync.NewCond(&it.mu)
	return it
}

func (it *copIterator) open(tasks []*copTask) {
	for i := 0; i < it.running; i++ {
		go it.worker()
	}
	go func() {
		for _, task := range tasks {
			it.tasks <- task
		}
		close(it.tasks)
	}()
}

func (it *copIterator) worker() {
	for task := range it.tasks {
		resp := &copResponse{region: task.region, rows: task.keys * 2}
		it.mu.Lock()
		it.handled++
		it.mu.Unlock()
		it.respCh <- resp
	}
	it.mu.Lock()
	it.running--
	if it.running == 0 {
		it.cond.Broadcast()
	}
	it.mu.Unlock()
}

// Next returns the next response; the caller knows how many to read.
func (it *copIterator) Next() *copResponse {
	return <-it.respCh
}

// Close waits until every worker has exited.
func (it *copIterator) Close() {
	it.mu.Lock()
	defer it.mu.Unlock()
	it.cond.Wait() // BUG: no loop on it.running > 0: a Broadcast before this Wait is lost
}

func TestCopIteratorReadAll(t *testing.T) {
	var tasks []*copTask
	for i := 0; i < 6; i++ {
		tasks = append(tasks, &copTask{region: i, keys: 10 + i})
	}
	it := newCopIterator(3, len(tasks))
	it.open(tasks)
	rows := 0
	for range tasks {
		rows += it.Next().rows
	}
	it.Close()
	if want := 2 * (6*10 + 5*6/2); rows != want {
		t.Errorf("read %d rows, want %d", rows, want)
	}
}
