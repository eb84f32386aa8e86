// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of sizing a worker pool from an environment variable (strconv.Atoi with clamping)
// what: the worker count is read from $WORKERS and clamped to 1..3; the jobs channel is closed
//   after the jobs are queued, every worker ranges until it is closed, and main waits on wg
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

func main() {
	n, err := strconv.Atoi(os.Getenv("WORKERS"))
	if err != nil || n < 1 {
		n = 2
	}
	if n > 3 {
		n = 3
	}
	jobs := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				mu.Lock()
				done++
				mu.Unlock()
			}
		}()
	}
	for j := 0; j < 3; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	fmt.Println(n, "workers did", done, "jobs")
}
