// want: ok
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed version runs the parallel subtests inside a "group" subtest: t.Run of the
//   group returns only once its parallel subtests have finished, so the WaitGroup is already
//   at zero and the buffered totals channel is full when the parent reads it

package shard

import (
	"fmt"
	"sync"
	"testing"
)

func sumSquares(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x * x
	}
	return s
}

func TestShards(t *testing.T) {
	shards := [][]int{{1, 2}, {3}, {4, 5, 6}}
	totals := make(chan int, len(shards))
	var wg sync.WaitGroup
	t.Run("group", func(t *testing.T) {
		for i, s := range shards {
			wg.Add(1)
			t.Run(fmt.Sprintf("shard%d", i), func(t *testing.T) {
				defer wg.Done()
				t.Parallel()
				totals <- sumSquares(s)
			})
		}
	}) // returns after its parallel subtests have run
	wg.Wait()
	close(totals)
	grand := 0
	for v := range totals {
		grand += v
	}
	if grand != 91 {
		t.Errorf("sum of squares = %d, want 91", grand)
	}
}
