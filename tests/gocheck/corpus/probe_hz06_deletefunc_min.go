// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of pruning closed subscribers with slices.DeleteFunc (minimal repro of probe_hz05_prune_subs)
// what: the predicate handed to slices.DeleteFunc does a non-blocking send (gocheck ran
//   library calls handed such a function as unsupported until it got models of them)
package main

import "slices"

func main() {
	subs := []chan int{make(chan int, 1), make(chan int)}
	subs = slices.DeleteFunc(subs, func(ch chan int) bool {
		select {
		case ch <- 1:
			return false
		default:
			return true
		}
	})
	_ = subs
}
