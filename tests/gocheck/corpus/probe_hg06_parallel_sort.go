// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on parallel merge sort with result channels and a goroutine depth limit
// what: the base case of parallelSort returns without sending its slice on out; the parent
//   goroutine blocks on <-left for ever, so does every ancestor up to main: all goroutines
//   asleep.

package main

import (
	"cmp"
	"fmt"
)

func merge[T cmp.Ordered](a, b []T) []T {
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			out = append(out, a[0])
			a = a[1:]
		} else {
			out = append(out, b[0])
			b = b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

func sequentialSort[T cmp.Ordered](xs []T) []T {
	if len(xs) <= 1 {
		return xs
	}
	mid := len(xs) / 2
	return merge(sequentialSort(xs[:mid]), sequentialSort(xs[mid:]))
}

func parallelSort[T cmp.Ordered](xs []T, depth int, out chan<- []T) {
	if len(xs) <= 1 {
		return // BUG: parent is waiting for this result
	}
	if depth == 0 {
		out <- sequentialSort(xs)
		return
	}
	mid := len(xs) / 2
	left, right := make(chan []T), make(chan []T)
	go parallelSort(xs[:mid], depth-1, left)
	go parallelSort(xs[mid:], depth-1, right)
	out <- merge(<-left, <-right)
}

func Sort[T cmp.Ordered](xs []T, maxDepth int) []T {
	res := make(chan []T)
	go parallelSort(xs, maxDepth, res)
	return <-res
}

func main() {
	fmt.Println(Sort([]int{5, 2, 9}, 2))
}
