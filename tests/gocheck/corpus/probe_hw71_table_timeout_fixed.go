// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a table-driven test with t.Run that bounds each case with a timeout
// what: same table test, but the result channel has a buffer of one, so the slow case's
//   goroutine delivers its late result into the buffer and exits after the test gave up
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
			got := make(chan string, 1)
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

func TestZZWaitStragglers(t *testing.T) {
	time.Sleep(40 * time.Millisecond) // the slow resolver finishes before the binary exits
}
