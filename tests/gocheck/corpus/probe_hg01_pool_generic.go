// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on generic worker-pool libraries (pond/ants-style Pool[T, R])
// what: collect() returns early on the error path before calling p.Close(), so the pool's
//   jobs channel is never closed and both workers (started as `go p.worker()` method values)
//   stay blocked in `range p.jobs` after main returns.

package main

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
)

type Result[R any] struct {
	Val R
	Err error
}

type Pool[T, R any] struct {
	jobs    chan T
	results chan Result[R]
	work    func(T) (R, error)
	wg      sync.WaitGroup
}

func NewPool[T, R any](n int, work func(T) (R, error)) *Pool[T, R] {
	p := &Pool[T, R]{
		jobs:    make(chan T),
		results: make(chan Result[R], n),
		work:    work,
	}
	for range n {
		p.wg.Add(1)
		go p.worker()
	}
	return p
}

func (p *Pool[T, R]) worker() {
	defer p.wg.Done()
	for j := range p.jobs {
		v, err := p.work(j)
		p.results <- Result[R]{Val: v, Err: err}
	}
}

func (p *Pool[T, R]) Submit(j T) { p.jobs <- j }

func (p *Pool[T, R]) Results() <-chan Result[R] { return p.results }

func (p *Pool[T, R]) Close() {
	close(p.jobs)
	p.wg.Wait()
	close(p.results)
}

func collect(items []string) (int, error) {
	p := NewPool(2, func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("parse %q: %w", s, err)
		}
		return n, nil
	})
	go func() {
		for _, it := range items {
			p.Submit(it)
		}
	}()
	sum := 0
	var errs []error
	for range len(items) {
		r := <-p.Results()
		if r.Err != nil {
			errs = append(errs, r.Err)
			continue
		}
		sum += r.Val
	}
	if len(errs) > 0 {
		return 0, errors.Join(errs...) // BUG: pool never closed on this path
	}
	p.Close()
	return sum, nil
}

func main() {
	sum, err := collect([]string{"4", "x", "7"})
	fmt.Println(sum, err)
}
