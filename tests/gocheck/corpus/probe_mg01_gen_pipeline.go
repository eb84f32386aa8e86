// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of modern Go features (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: generic Generate/Map/Filter stages chained on unbuffered channels; firstAdmin returns on
//   the first match without telling the stages to stop, so Filter (and Map, Generate) stay blocked.

package main

import "fmt"

func Generate[T any](items ...T) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		for _, it := range items {
			out <- it
		}
	}()
	return out
}

func Map[T, U any](in <-chan T, f func(T) U) <-chan U {
	out := make(chan U)
	go func() {
		defer close(out)
		for v := range in {
			out <- f(v)
		}
	}()
	return out
}

func Filter[T any](in <-chan T, keep func(T) bool) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		for v := range in {
			if keep(v) {
				out <- v
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
	users := Map(Generate(ids...), func(id int) user { return user{id, fmt.Sprintf("u%d", id)} })
	admins := Filter(users, func(u user) bool { return u.id%2 == 0 })
	for u := range admins {
		return u, true // stops reading: the stages upstream are never released
	}
	return user{}, false
}

func main() {
	u, ok := firstAdmin(1, 2, 3, 4)
	fmt.Println(u.name, ok)
}
