// want: partial-deadlock
// source: written for chanfuzz (2026-12-02): a test file, checked as go test runs it
// what: the test starts a worker that waits for its input channel to close, then fails
//   with t.Fatalf before the close: t.Fatalf ends the test goroutine through
//   runtime.Goexit, so the close after it never runs and the worker leaks

package worker

import "testing"

func drain(in <-chan int, out chan<- int) {
	sum := 0
	for v := range in {
		sum += v
	}
	out <- sum
}

func TestDrain(t *testing.T) {
	in, out := make(chan int, 3), make(chan int, 1)
	go drain(in, out)
	for i := 1; i <= 3; i++ {
		in <- i
	}
	if len(in) > 0 && cap(in) == 3 {
		t.Fatalf("the worker has not taken its input yet (%d left)", len(in))
	}
	close(in)
	if got := <-out; got != 6 {
		t.Errorf("sum = %d, want 6", got)
	}
}
