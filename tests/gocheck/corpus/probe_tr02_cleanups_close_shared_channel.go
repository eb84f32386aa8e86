// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a package whose tests share a stop channel (minimal reproduction of probe_tr01)
// what: two tests each close the same package-level quit channel as their teardown; go test runs them in
//   one process, so the second close panics

package server

import "testing"

var quit = make(chan struct{})

func TestStart(t *testing.T) {
	t.Cleanup(func() { close(quit) })
}

func TestRestart(t *testing.T) {
	t.Cleanup(func() { close(quit) })
}
