// want: global-deadlock
// source: written for chanfuzz as a probe of go test's -parallel limit (2026-12-05; run with Go 1.26: hangs under GOMAXPROCS=1, passes with 2 and 4 CPUs)
// what: a parallel subtest "pair" starts two parallel subtests of its own that hand a value
//   over an unbuffered channel; pair gives up its place once its function returns, but on
//   one CPU only one of its subtests runs at a time, and the sender waits for a receiver
//   that waits for the sender's place: go test hangs. Its sequential sibling "setup" and
//   the results sent to the top-level test on a buffered channel are fine either way

package nested

import "testing"

func TestNested(t *testing.T) {
	results := make(chan int, 2)
	t.Run("setup", func(t *testing.T) {
		results <- 1
	})
	t.Run("pair", func(t *testing.T) {
		t.Parallel()
		handoff := make(chan int)
		t.Run("send", func(t *testing.T) {
			t.Parallel()
			handoff <- 41
		})
		t.Run("receive", func(t *testing.T) {
			t.Parallel()
			results <- <-handoff + 1
		})
	})
	t.Cleanup(func() {
		if got := <-results + <-results; got != 43 {
			t.Errorf("got %d", got)
		}
	})
}
