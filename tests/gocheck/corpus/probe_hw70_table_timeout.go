// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a table-driven test with t.Run that bounds each case with a timeout
// what: each subtest runs the call in a goroutine that sends on an unbuffered channel and
//   gives up after a short time.After; the slow case times out, the test returns, and its
//   goroutine stays blocked on the send (a leak)
package resolver

import (
	"testing"
	"time"
)

func resolve(name string) string {
	if name == "slow.example" {
		time.Sleep(8 * time.Millisecond)
	}
	return "10.0.0.1"
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name    string
		host    string
		wantErr bool
	}{
		{"fast", "fast.example", false},
		{"slow", "slow.example", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan string) // BUG: should be buffered (1)
			go func() { got <- resolve(tc.host) }()
			select {
			case ip := <-got:
				if tc.wantErr {
					t.Logf("expected timeout, got %s", ip)
				}
			case <-time.After(2 * time.Millisecond):
				if !tc.wantErr {
					t.Errorf("%s: timed out", tc.host)
				}
			}
		})
	}
}
