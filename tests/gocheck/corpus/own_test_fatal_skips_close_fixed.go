// want: ok
// source: written for chanfuzz (2026-12-02): a test file, checked as go test runs it
// what: the fixed version closes the input in a deferred call, which t.Fatalf runs as
//   runtime.Goexit unwinds the test goroutine: the worker always ends

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
	closed := false
	defer func() {
		if !closed {
			close(in)
		}
	}()
	for i := 1; i <= 3; i++ {
		in <- i
	}
	if len(in) > 0 && cap(in) == 3 {
		t.Fatalf("the worker has not taken its input yet (%d left)", len(in))
	}
	close(in)
	closed = true
	if got := <-out; got != 6 {
		t.Errorf("sum = %d, want 6", got)
	}
}
