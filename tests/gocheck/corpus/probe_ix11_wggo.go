// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: sync.WaitGroup.Go (Go 1.25) with a sync.Map and atomic.Int64

package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var wg sync.WaitGroup
	var m sync.Map
	var n atomic.Int64
	for i := range 4 {
		wg.Go(func() {
			m.Store(i, i*i)
			n.Add(1)
		})
	}
	wg.Wait()
	total := 0
	m.Range(func(k, v any) bool {
		total += v.(int)
		return true
	})
	fmt.Println(total, n.Load())
}
