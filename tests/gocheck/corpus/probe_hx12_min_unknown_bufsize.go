// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of sizing a results channel by an input list's length (minimal repro of h3_env_peers)
// what: the buffer size is len() of a list parsed from the environment; one send per item
//   fits, so nothing blocks; gocheck rejects make(chan T, n) when n is not a known constant
package main

import (
	"os"
	"strings"
)

func main() {
	items := strings.Split(os.Getenv("ITEMS"), ",")
	results := make(chan string, len(items))
	for _, it := range items {
		results <- it
	}
	close(results)
	for range results {
	}
}
