// want: ok
// source: the "wg.Wait() before reading results" ordering bug, fixed
// what: a separate goroutine waits for the workers and then closes results while main drains it.
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
	go func() {
		wg.Wait()
		close(results)
	}()
	for r := range results {
		fmt.Println("processed", r)
	}
}
