// want: global-deadlock
// source: the "wg.Wait() before reading results" ordering bug, common in Go issue trackers
// what: main calls wg.Wait() and close(results) before draining the unbuffered results channel;
//   the workers block sending their first result, so nobody can make progress.
package main

import (
	"fmt"
	"strings"
	"sync"
)

func main() {
	files := []string{"a.txt", "b.txt", "c.txt", "d.txt"}
	results := make(chan string)
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Add(1)
		go func(f string) {
			defer wg.Done()
			results <- strings.ToUpper(f)
		}(f)
	}
	wg.Wait()
	close(results)
	for r := range results {
		fmt.Println("processed", r)
	}
}
