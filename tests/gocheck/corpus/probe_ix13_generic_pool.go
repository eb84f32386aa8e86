// want: global-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a generic worker pool whose Wait is called before the jobs channel is closed: workers range for ever, Wait never returns

package main

import (
	"fmt"
	"sync"
)

type Pool[T, R any] struct {
	jobs    chan T
	results chan R
	wg      sync.WaitGroup
}

func NewPool[T, R any](n int, f func(T) R) *Pool[T, R] {
	p := &Pool[T, R]{jobs: make(chan T), results: make(chan R, 16)}
	for range n {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				p.results <- f(j)
			}
		}()
	}
	return p
}

func main() {
	p := NewPool(2, func(s string) int { return len(s) })
	for _, w := range []string{"a", "bb", "ccc"} {
		p.jobs <- w
	}
	p.wg.Wait()
	close(p.jobs)
	close(p.results)
	for r := range p.results {
		fmt.Println(r)
	}
}
