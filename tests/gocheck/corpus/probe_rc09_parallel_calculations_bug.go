// want: global-deadlock
// source: Rosetta Code task 'Parallel calculations', rewritten; the classic un-closed results bug
// what: neither jobs nor results is ever closed; after the last result main blocks in
//   `for r := range results` while the three workers block in `for n := range jobs`.
package main

import "fmt"

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
	jobs := make(chan int, len(numbers))
	results := make(chan result)
	for w := 0; w < 3; w++ {
		go func() {
			for n := range jobs {
				results <- result{n, minFactor(n)}
			}
		}()
	}
	for _, n := range numbers {
		jobs <- n
	}
	best := result{}
	for r := range results {
		if r.minFactor > best.minFactor {
			best = r
		}
	}
	fmt.Printf("%d has the largest minimal factor %d\n", best.n, best.minFactor)
}
