// want: global-deadlock
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a generic Future[T] whose Get receives from its one-slot channel; main reads the price
//   future once to log it and again to compute the total, and the second Get blocks for ever.

package main

import "fmt"

type Future[T any] struct {
	ch chan T
}

func Async[T any](f func() T) *Future[T] {
	fut := &Future[T]{ch: make(chan T, 1)}
	go func() { fut.ch <- f() }()
	return fut
}

func (f *Future[T]) Get() T { return <-f.ch }

func logged[T any](name string, f *Future[T]) *Future[T] {
	fmt.Println(name, "=", f.Get())
	return f
}

func main() {
	price := Async(func() int { return 42 })
	qty := Async(func() int { return 3 })
	logged("price", price)
	fmt.Println("total", price.Get()*qty.Get())
}
