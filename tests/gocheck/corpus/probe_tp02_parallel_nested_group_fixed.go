// want: ok
// source: written for chanfuzz as a probe of go test's -parallel limit (2026-12-05; run with Go 1.26 under GOMAXPROCS=1, 2 and 4)
// what: the fixed version sends before the receiver runs: the handoff channel has room for
//   the value and "send" is no parallel subtest, so it ends inside pair's function, and
//   "receive" finds the value whenever it gets its place (only giving the channel room would
//   not do: with -parallel 1 "receive" may take the one place first and wait for ever)

package nested

import "testing"

func TestNested(t *testing.T) {
	results := make(chan int, 2)
	t.Run("setup", func(t *testing.T) {
		results <- 1
	})
	t.Run("pair", func(t *testing.T) {
		t.Parallel()
		handoff := make(chan int, 1)
		t.Run("send", func(t *testing.T) {
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
