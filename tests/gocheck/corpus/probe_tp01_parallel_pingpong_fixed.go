// want: ok
// source: written for chanfuzz as a probe of go test's -parallel limit (2026-12-05; run with Go 1.26 under GOMAXPROCS=1, 2 and 4)
// what: the fixed version plays ping-pong between two goroutines of one parallel subtest:
//   however few tests run at once, both players run together

package pingpong

import "testing"

func TestPingPong(t *testing.T) {
	t.Run("match", func(t *testing.T) {
		t.Parallel()
		ball := make(chan int)
		done := make(chan struct{})
		go func() {
			defer close(done)
			v := <-ball
			ball <- v + 1
		}()
		ball <- 1
		if v := <-ball; v != 2 {
			t.Errorf("got %d", v)
		}
		<-done
	})
	t.Run("other", func(t *testing.T) {
		t.Parallel()
	})
}
