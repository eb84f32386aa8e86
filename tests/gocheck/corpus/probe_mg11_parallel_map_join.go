// want: ok
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a generic ParallelMap with wg.Go, a semaphore of min(workers, len(items)) slots and
//   per-index results joined with errors.Join; every acquire is paired with a deferred release.

package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
)

func ParallelMap[T, R any](items []T, workers int, f func(T) (R, error)) ([]R, error) {
	out := make([]R, len(items))
	errs := make([]error, len(items))
	sem := make(chan struct{}, max(1, min(workers, len(items))))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], errs[i] = f(it)
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func main() {
	sizes := map[string]int{"a": 1, "bb": 2, "ccc": 3, "dddd": 4}
	names := slices.Sorted(maps.Keys(sizes))
	res, err := ParallelMap(names, 2, func(n string) (int, error) {
		if sizes[n] > 3 {
			return 0, fmt.Errorf("%s: too big", n)
		}
		return sizes[n] * 10, nil
	})
	fmt.Println(res, err)
}
