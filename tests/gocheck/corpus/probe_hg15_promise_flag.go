// want: channel-safety
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on hedged requests resolving a Promise[T] (first response wins)
// what: Resolve checks an unguarded resolved flag instead of using sync.Once; primary and hedge
//   can both see resolved == false before either sets it, and both close p.done: close of a
//   closed channel in those interleavings.

package main

import (
	"fmt"
	"runtime"
	"sync"
)

type Promise[T any] struct {
	mu       sync.Mutex
	resolved bool
	done     chan struct{}
	val      T
}

func NewPromise[T any]() *Promise[T] { return &Promise[T]{done: make(chan struct{})} }

func (p *Promise[T]) isResolved() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resolved
}

func (p *Promise[T]) Resolve(v T) bool {
	if p.isResolved() { // BUG: check and set are not one critical section
		return false
	}
	runtime.Gosched()
	p.mu.Lock()
	p.resolved = true
	p.val = v
	p.mu.Unlock()
	close(p.done)
	return true
}

func (p *Promise[T]) Get() T {
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.val
}

func main() {
	p := NewPromise[string]()
	fetchers := map[string]func() string{
		"primary": func() string { return "v1" },
		"hedge":   func() string { return "v1" },
	}
	var wg sync.WaitGroup
	for name, f := range fetchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p.Resolve(f()) {
				fmt.Println("won:", name != "")
			}
		}()
	}
	fmt.Println(p.Get())
	wg.Wait()
}
