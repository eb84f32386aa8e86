// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on Future[T]/async helper packages with panic-safe workers
// what: fixed version: the deferred recover turns the panic into an error result and sends it
//   on the future's buffered channel, so every Await returns and loadAll stops at the error.

package main

import (
	"fmt"
	"strings"
)

type outcome[T any] struct {
	val T
	err error
}

type Future[T any] struct {
	ch chan outcome[T]
}

func Async[T any](f func() (T, error)) *Future[T] {
	fut := &Future[T]{ch: make(chan outcome[T], 1)}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				var zero T
				fut.ch <- outcome[T]{val: zero, err: fmt.Errorf("task panicked: %v", r)}
			}
		}()
		v, err := f()
		fut.ch <- outcome[T]{val: v, err: err}
	}()
	return fut
}

func (f *Future[T]) Await() (T, error) {
	o := <-f.ch
	return o.val, o.err
}

type Config struct {
	Name string
	Keys []string
}

func parseConfig(src string) (Config, error) {
	parts := strings.Split(src, ":")
	if len(parts) < 2 {
		panic("malformed config " + src)
	}
	return Config{Name: parts[0], Keys: strings.Split(parts[1], ",")}, nil
}

func loadAll(srcs []string) ([]Config, error) {
	futs := make([]*Future[Config], 0, len(srcs))
	for _, s := range srcs {
		futs = append(futs, Async(func() (Config, error) { return parseConfig(s) }))
	}
	out := make([]Config, 0, len(futs))
	for _, f := range futs {
		c, err := f.Await()
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func main() {
	cfgs, err := loadAll([]string{"db:host,port", "broken", "cache:size"})
	fmt.Println(len(cfgs), err)
}
