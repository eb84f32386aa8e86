// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26 by tests/gocheck/confirm.py --dir, golang.org/x/sync taken from the module cache; see docs/gocheck-report.md)
// what: errgroup.SetLimit bounds a crawl; results go into a mutex-guarded slice

package main

import (
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
)

func main() {
	var g errgroup.Group
	g.SetLimit(2)
	var mu sync.Mutex
	var out []int
	for i := range 6 {
		g.Go(func() error {
			mu.Lock()
			out = append(out, i)
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	fmt.Println(len(out))
}
