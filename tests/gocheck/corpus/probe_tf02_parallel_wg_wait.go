// want: global-deadlock
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the parent test waits on a WaitGroup that its t.Parallel subtests mark done; but a
//   parallel subtest only runs after the parent's function has returned, so the parent's
//   wg.Wait and the paused subtests wait on each other: go test hangs

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
	for i, s := range shards {
		wg.Add(1)
		t.Run(fmt.Sprintf("shard%d", i), func(t *testing.T) {
			defer wg.Done()
			t.Parallel()
			totals <- sumSquares(s)
		})
	}
	wg.Wait() // the subtests are paused in t.Parallel until TestShards returns
	close(totals)
	grand := 0
	for v := range totals {
		grand += v
	}
	if grand != 91 {
		t.Errorf("sum of squares = %d, want 91", grand)
	}
}
