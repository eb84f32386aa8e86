// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a parallel file hasher that closes its results channel after wg.Wait
// what: wg.Add(len(files)) happens before any goroutine starts, so the closer's wg.Wait only
//   returns after every hasher has sent its result
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
	wg.Add(len(files))
	for _, f := range files {
		go func(name string) {
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
