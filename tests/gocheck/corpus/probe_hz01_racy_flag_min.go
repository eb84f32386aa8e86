// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a Close() guarded by a plain bool flag (minimal repro of probe_hz02_racy_closed_flag)
// what: two goroutines test an unguarded bool before closing; both can read false (a data race),
//   so the channel is closed twice (the test and the set lie around a sleep)
package main

import "time"

var closed bool

func shut(ch chan struct{}) {
	if !closed {
		time.Sleep(time.Millisecond)
		closed = true
		close(ch)
	}
}

func main() {
	ch := make(chan struct{})
	done := make(chan struct{})
	go func() { shut(ch); close(done) }()
	shut(ch)
	<-done
}
