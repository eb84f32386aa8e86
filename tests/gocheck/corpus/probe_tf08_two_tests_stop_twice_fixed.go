// want: ok
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed version makes Stop idempotent with a sync.Once around close(w.quit), so
//   the cleanup's second Stop only waits on the closed done channel: both tests are fine

package summer

import (
	"sync"
	"testing"
)

type Worker struct {
	jobs chan int
	quit chan struct{}
	done chan struct{}
	sum  int
	once sync.Once
}

func Start() *Worker {
	w := &Worker{jobs: make(chan int), quit: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *Worker) run() {
	defer close(w.done)
	for {
		select {
		case j := <-w.jobs:
			w.sum += j
		case <-w.quit:
			return
		}
	}
}

func (w *Worker) Submit(j int) { w.jobs <- j }

// Stop stops the worker, waits for it and returns the sum of the jobs it took.
func (w *Worker) Stop() int {
	w.once.Do(func() { close(w.quit) })
	<-w.done
	return w.sum
}

func TestWorkerSum(t *testing.T) {
	w := Start()
	for i := 1; i <= 4; i++ {
		w.Submit(i)
	}
	if got := w.Stop(); got != 10 {
		t.Errorf("sum = %d, want 10", got)
	}
}

func TestWorkerEarlyStop(t *testing.T) {
	w := Start()
	t.Cleanup(func() { w.Stop() }) // a safety net in case the test fails early
	w.Submit(5)
	if got := w.Stop(); got != 5 {
		t.Errorf("sum = %d, want 5", got)
	}
}
