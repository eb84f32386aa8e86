// want: global-deadlock
// source: written for chanfuzz as a probe of go test's -parallel limit (2026-12-05; run with Go 1.26: hangs under GOMAXPROCS=1 or -parallel 1, passes with 2 CPUs)
// what: two parallel subtests play ping-pong on an unbuffered channel; go test runs at most
//   GOMAXPROCS parallel tests at once (its -parallel flag's default), so on one CPU the
//   first waits for a reply from the second, which waits for the first to end: go test hangs

package pingpong

import "testing"

func TestPingPong(t *testing.T) {
	ball := make(chan int)
	t.Run("ping", func(t *testing.T) {
		t.Parallel()
		ball <- 1
		if v := <-ball; v != 2 {
			t.Errorf("got %d", v)
		}
	})
	t.Run("pong", func(t *testing.T) {
		t.Parallel()
		v := <-ball
		ball <- v + 1
	})
}
