// want: global-deadlock
// source: written for this corpus
// what: Add(3) but only two workers are started: Wait blocks for ever

package main

import "sync"

func main() {
	var wg sync.WaitGroup
	wg.Add(3)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
		}()
	}
	wg.Wait()
}
