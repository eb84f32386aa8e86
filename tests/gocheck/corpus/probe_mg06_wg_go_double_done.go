// want: channel-safety
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a loop moved from wg.Add(1)/go to Go 1.25's wg.Go but kept its "defer wg.Done()"; wg.Go
//   calls Done itself, so each task decrements twice and the counter goes negative (panic).

package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type shard struct {
	id    int
	items []int
}

func main() {
	shards := []shard{{0, []int{1, 2}}, {1, []int{3}}, {2, []int{4, 5, 6}}}
	var wg sync.WaitGroup
	var total atomic.Int64
	for _, s := range shards {
		wg.Go(func() {
			defer wg.Done()
			for _, v := range s.items {
				total.Add(int64(v))
			}
		})
	}
	wg.Wait()
	fmt.Println("sum of", len(shards), "shards:", total.Load())
}
