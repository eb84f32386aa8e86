// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of wg.Add(len(list)) for a list of run-time length (minimal repro of h3_env_wg_len)
// what: wg.Add(len(addrs)) up front, one goroutine per address calling Done; gocheck rejects
//   WaitGroup.Add with a count it cannot tell
package main

import (
	"os"
	"strings"
	"sync"
)

func main() {
	addrs := strings.Fields(os.Getenv("ADDRS"))
	var wg sync.WaitGroup
	wg.Add(len(addrs))
	for range addrs {
		go wg.Done()
	}
	wg.Wait()
}
