// want: ok
// source: written for chanfuzz by gocheck's author (2026-12-05; confirmed with Go 1.26), not held out, in the style of a semaphore channel of 2 bounding a goroutine per command-line argument
// what: each goroutine releases its slot when done; main acquires before starting one
package main

import (
	"fmt"
	"os"
	"sync"
)

func main() {
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
	for _, a := range os.Args[1:] {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			mu.Lock()
			seen[a] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(len(seen))
}
