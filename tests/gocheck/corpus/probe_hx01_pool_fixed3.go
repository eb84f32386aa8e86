// want: ok
// source: written for chanfuzz by gocheck's author (2026-12-05; confirmed with Go 1.26), not held out, in the style of a fixed pool of three workers draining jobs fed from an input list
// what: a results channel sized by len(items) holds every result, so the workers never block
//   before main waits; the list's length is unknown (ITEMS from the environment)
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

func main() {
	items := strings.Split(os.Getenv("ITEMS"), ",")
	jobs := make(chan string)
	results := make(chan int, len(items))
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results <- len(j)
			}
		}()
	}
	for _, it := range items {
		jobs <- it
	}
	close(jobs)
	wg.Wait()
	close(results)
	total := 0
	for r := range results {
		total += r
	}
	fmt.Println(total)
}
