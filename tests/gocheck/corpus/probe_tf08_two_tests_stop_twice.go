// want: channel-safety
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: two tests of a summing worker: TestWorkerSum stops it once and is fine;
//   TestWorkerEarlyStop also registers Stop as a safety-net cleanup, so Stop runs twice and
//   its second close(w.quit) panics with close of closed channel

package summer

import "testing"

type Worker struct {
	jobs chan int
	quit chan struct{}
	done chan struct{}
	sum  int
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
	close(w.quit)
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
