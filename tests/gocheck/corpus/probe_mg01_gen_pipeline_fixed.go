// want: ok
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the generic Generate/Map/Filter pipeline with a done channel threaded through every stage;
//   firstAdmin closes done on return, and every send selects on it, so no stage is left blocked.

package main

import "fmt"

func Generate[T any](done <-chan struct{}, items ...T) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		for _, it := range items {
			select {
			case out <- it:
			case <-done:
				return
			}
		}
	}()
	return out
}

func Map[T, U any](done <-chan struct{}, in <-chan T, f func(T) U) <-chan U {
	out := make(chan U)
	go func() {
		defer close(out)
		for v := range in {
			select {
			case out <- f(v):
			case <-done:
				return
			}
		}
	}()
	return out
}

func Filter[T any](done <-chan struct{}, in <-chan T, keep func(T) bool) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		for v := range in {
			if !keep(v) {
				continue
			}
			select {
			case out <- v:
			case <-done:
				return
			}
		}
	}()
	return out
}

type user struct {
	id   int
	name string
}

func firstAdmin(ids ...int) (user, bool) {
	done := make(chan struct{})
	defer close(done)
	users := Map(done, Generate(done, ids...), func(id int) user { return user{id, fmt.Sprintf("u%d", id)} })
	for u := range Filter(done, users, func(u user) bool { return u.id%2 == 0 }) {
		return u, true
	}
	return user{}, false
}

func main() {
	u, ok := firstAdmin(1, 2, 3, 4)
	fmt.Println(u.name, ok)
}
