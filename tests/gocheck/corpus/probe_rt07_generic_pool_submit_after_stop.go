// want: partial-deadlock
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: Pool[T].Submit after Stop: Stop closes quit, the workers exit, and a late Submit
//   from a goroutine blocks on the unbuffered jobs channel for ever

package main

import (
	"fmt"
	"sync"
)

type Pool[T any] struct {
	jobs chan T
	quit chan struct{}
	wg   sync.WaitGroup
	fn   func(T)
}

func NewPool[T any](n int, fn func(T)) *Pool[T] {
	p := &Pool[T]{jobs: make(chan T), quit: make(chan struct{}), fn: fn}
	for i := 0; i < n; i++ {
		p.wg.Add(1)
		go p.worker()
	}
	return p
}

func (p *Pool[T]) worker() {
	defer p.wg.Done()
	for {
		select {
		case j := <-p.jobs:
			p.fn(j)
		case <-p.quit:
			return
		}
	}
}

func (p *Pool[T]) Submit(j T) { p.jobs <- j }

func (p *Pool[T]) Stop() { close(p.quit); p.wg.Wait() }

func main() {
	var mu sync.Mutex
	total := 0
	p := NewPool(2, func(v int) { mu.Lock(); total += v; mu.Unlock() })
	for i := 1; i <= 3; i++ {
		p.Submit(i)
	}
	p.Stop()
	done := make(chan struct{})
	go func() {
		p.Submit(4)
		close(done)
	}()
	fmt.Println(total)
}
