// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of starting per-backend workers from a parsed config string
// what: wg.Add(1) is called just before each go statement, after the entry has parsed, so
//   skipped entries do not count and wg.Wait returns
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
	for _, e := range entries {
		name, w, ok := strings.Cut(strings.TrimSpace(e), ":")
		if !ok {
			continue
		}
		weight, err := strconv.Atoi(w)
		if err != nil {
			fmt.Printf("skipping %s: %v\n", name, err)
			continue
		}
		wg.Add(1)
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
