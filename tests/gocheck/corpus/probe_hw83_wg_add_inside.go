// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a parallel file hasher that closes its results channel after wg.Wait
// what: each goroutine calls wg.Add(1) itself; the closer's wg.Wait can run before any Add and
//   return at once, closing results while a hasher is about to send: send on closed channel
package main

import (
	"fmt"
	"hash/fnv"
	"sync"
)

func main() {
	files := []string{"a.txt", "b.txt"}
	results := make(chan uint32, len(files))
	var wg sync.WaitGroup
	for _, f := range files {
		go func(name string) {
			wg.Add(1) // BUG: must be called before the go statement
			defer wg.Done()
			h := fnv.New32a()
			h.Write([]byte(name))
			results <- h.Sum32()
		}(f)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	n := 0
	for range results {
		n++
	}
	fmt.Println(n, "hashes")
}
