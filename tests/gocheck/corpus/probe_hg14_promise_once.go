// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on hedged requests resolving a Promise[T] (first response wins)
// what: primary and hedge both call Resolve; the sync.Once guards the close of done, so only the
//   first caller stores the value and closes the channel, and Get returns in every interleaving.

package main

import (
	"fmt"
	"sync"
)

type Promise[T any] struct {
	once sync.Once
	done chan struct{}
	val  T
	src  string
}

func NewPromise[T any]() *Promise[T] { return &Promise[T]{done: make(chan struct{})} }

func (p *Promise[T]) Resolve(src string, v T) bool {
	won := false
	p.once.Do(func() {
		p.val, p.src = v, src
		close(p.done)
		won = true
	})
	return won
}

func (p *Promise[T]) Get() (T, string) {
	<-p.done
	return p.val, p.src
}

type backend struct {
	name  string
	fetch func(key string) string
}

func hedged[T any](key string, backends []backend, conv func(string) T) (T, string) {
	p := NewPromise[T]()
	var wg sync.WaitGroup
	for _, b := range backends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Resolve(b.name, conv(b.fetch(key)))
		}()
	}
	v, src := p.Get()
	wg.Wait()
	return v, src
}

func main() {
	bs := []backend{
		{"primary", func(k string) string { return "p:" + k }},
		{"hedge", func(k string) string { return "h:" + k }},
	}
	v, src := hedged("user42", bs, func(s string) int { return len(s) })
	fmt.Println(v, src != "")
}
