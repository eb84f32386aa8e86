// want: ok
// source: Rosetta Code task 'Sorting algorithms/Merge sort', concurrent variant, rewritten
// what: mergeSort splits the slice and sorts each half in its own goroutine, each sending its
//   sorted half on its own channel; the parent receives both and merges. Small slices sort inline.
package main

import (
	"fmt"
	"math/rand"
	"sort"
)

func merge(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

func mergeSort(s []int, res chan<- []int) {
	if len(s) <= 16 {
		c := append([]int(nil), s...)
		sort.Ints(c)
		res <- c
		return
	}
	mid := len(s) / 2
	left, right := make(chan []int), make(chan []int)
	go mergeSort(s[:mid], left)
	go mergeSort(s[mid:], right)
	res <- merge(<-left, <-right)
}

func main() {
	s := make([]int, 100)
	for i := range s {
		s[i] = rand.Intn(1000)
	}
	res := make(chan []int)
	go mergeSort(s, res)
	sorted := <-res
	fmt.Println(sort.IntsAreSorted(sorted), len(sorted), sorted[:5])
}
