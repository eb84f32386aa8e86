// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of starting per-backend workers from a parsed config string
// what: main calls wg.Add(len(entries)) up front, then skips (continue) an entry whose weight
//   does not parse; that entry's worker is never started, so wg.Wait can never return
package main

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

func main() {
	spec := "alpha:3, beta:x, gamma:1"
	entries := strings.Split(spec, ",")
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	wg.Add(len(entries))
	for _, e := range entries {
		name, w, ok := strings.Cut(strings.TrimSpace(e), ":")
		if !ok {
			continue
		}
		weight, err := strconv.Atoi(w)
		if err != nil {
			fmt.Printf("skipping %s: %v\n", name, err)
			continue // BUG: no wg.Done() for the skipped entry
		}
		go func(name string, weight int) {
			defer wg.Done()
			mu.Lock()
			total += weight
			mu.Unlock()
		}(name, weight)
	}
	wg.Wait()
	fmt.Println("total weight", total)
}
