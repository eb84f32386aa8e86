// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (kubernetes-style) two workers read jobs and send results on an unbuffered channel
//   without watching ctx; main takes the first result, cancels the context and returns, so
//   the workers stay blocked on their result sends (a leak)

package main

import (
	"context"
	"fmt"
	"sync"
)

func worker(ctx context.Context, jobs <-chan int, results chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case j, ok := <-jobs:
			if !ok {
				return
			}
			results <- j * 2 // BUG: not guarded by ctx.Done()
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	jobs := make(chan int, 4)
	results := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go worker(ctx, jobs, results, &wg)
	}
	for j := 0; j < 4; j++ {
		jobs <- j
	}
	close(jobs)
	first := <-results
	cancel()
	fmt.Println("first", first)
}
