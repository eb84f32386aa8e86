// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a server goroutine started from init() on a package-level channel (minimal repro of probe_hz03_init_server)
// what: the server goroutine is idle in `range reqs` when main returns; reqs is a package-level
//   variable, so Go's leak profile does not count it as leaked
package main

var reqs = make(chan int)

func init() {
	go func() {
		for range reqs {
		}
	}()
}

func main() {
	reqs <- 1
}
