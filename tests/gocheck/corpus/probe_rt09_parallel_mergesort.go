// want: ok
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: parallel merge sort spawning a goroutine per half down to depth 2, results through
//   channels

package main

import "fmt"

func merge(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

func sortPar(xs []int, depth int, out chan<- []int) {
	if len(xs) <= 1 || depth == 0 {
		for i := 1; i < len(xs); i++ {
			for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
				xs[j], xs[j-1] = xs[j-1], xs[j]
			}
		}
		out <- xs
		return
	}
	mid := len(xs) / 2
	l, r := make(chan []int), make(chan []int)
	go sortPar(xs[:mid], depth-1, l)
	go sortPar(xs[mid:], depth-1, r)
	out <- merge(<-l, <-r)
}

func main() {
	out := make(chan []int)
	go sortPar([]int{5, 3, 8, 1, 9, 2, 7}, 2, out)
	fmt.Println(<-out)
}
