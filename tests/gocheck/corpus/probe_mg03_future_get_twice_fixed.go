// want: ok
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the generic Future[T] keeps its value and closes a done channel once it is set, so Get may
//   be called any number of times from any goroutine; a future nobody reads does not leak either.

package main

import (
	"fmt"
	"sync"
)

type Future[T any] struct {
	done chan struct{}
	val  T
}

func Async[T any](f func() T) *Future[T] {
	fut := &Future[T]{done: make(chan struct{})}
	go func() {
		fut.val = f()
		close(fut.done)
	}()
	return fut
}

func (f *Future[T]) Get() T {
	<-f.done
	return f.val
}

func logged[T any](name string, f *Future[T]) *Future[T] {
	fmt.Println(name, "=", f.Get())
	return f
}

func main() {
	price := Async(func() int { return 42 })
	qty := Async(func() int { return 3 })
	_ = Async(func() string { return "unused" })
	logged("price", price)
	var wg sync.WaitGroup
	wg.Go(func() { fmt.Println("audit", price.Get()) })
	fmt.Println("total", price.Get()*qty.Get())
	wg.Wait()
}
