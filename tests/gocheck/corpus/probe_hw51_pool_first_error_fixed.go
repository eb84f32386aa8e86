// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a worker pool with a results channel (checksum/fetch tools)
// what: the collector remembers the first error but keeps draining results until the closer
//   goroutine closes the channel, so every worker can finish
package main

import (
	"errors"
	"fmt"
	"sync"
)

type result struct {
	id  int
	err error
}

func process(id int) error {
	if id == 1 {
		return errors.New("bad input")
	}
	return nil
}

func run(ids []int) error {
	jobs := make(chan int, len(ids))
	results := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				results <- result{id, process(id)}
			}
		}()
	}
	for _, id := range ids {
		jobs <- id
	}
	close(jobs)
	go func() { wg.Wait(); close(results) }()

	var first error
	for r := range results {
		if r.err != nil && first == nil {
			first = fmt.Errorf("job %d: %w", r.id, r.err)
		}
	}
	return first
}

func main() {
	fmt.Println(run([]int{1, 2, 3}))
}
