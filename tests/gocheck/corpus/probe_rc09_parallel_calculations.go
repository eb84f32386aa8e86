// want: ok
// source: Rosetta Code task 'Parallel calculations', rewritten with a worker pool
// what: three workers read numbers from a jobs channel and report each number's smallest prime
//   factor; a closer goroutine closes results after wg.Wait; main picks the largest minimal factor.
package main

import (
	"fmt"
	"sync"
)

type result struct{ n, minFactor int }

func minFactor(n int) int {
	for f := 2; f*f <= n; f++ {
		if n%f == 0 {
			return f
		}
	}
	return n
}

func main() {
	numbers := []int{12757923, 12878611, 12878893, 12757923, 15808973, 15780709, 197622519}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				results <- result{n, minFactor(n)}
			}
		}()
	}
	go func() {
		for _, n := range numbers {
			jobs <- n
		}
		close(jobs)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	best := result{}
	for r := range results {
		if r.minFactor > best.minFactor {
			best = r
		}
	}
	fmt.Printf("%d has the largest minimal factor %d\n", best.n, best.minFactor)
}
