// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a worker pool with a results channel (checksum/fetch tools)
// what: workers send every result on an unbuffered results channel; the collector returns on the
//   first error, so the other workers stay blocked sending their results (a leak)
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

	for r := range results {
		if r.err != nil {
			return fmt.Errorf("job %d: %w", r.id, r.err) // BUG: abandons results
		}
	}
	return nil
}

func main() {
	fmt.Println(run([]int{1, 2, 3}))
}
