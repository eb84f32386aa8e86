// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (prometheus-style) merge() fans in two producers with a select loop and counts closed
//   inputs, but does not set a closed input to nil; a closed channel stays ready, so its
//   close is counted twice, merge exits early and the other producer stays blocked on its
//   send after main has drained the merged output (a leak, interleaving-dependent)

package main

import "fmt"

func produce(vals []int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, v := range vals {
			out <- v
		}
	}()
	return out
}

func merge(a, b <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		closed := 0
		for closed < 2 {
			select {
			case v, ok := <-a:
				if !ok {
					closed++ // BUG: a stays selectable
					continue
				}
				out <- v
			case v, ok := <-b:
				if !ok {
					closed++
					continue
				}
				out <- v
			}
		}
	}()
	return out
}

func main() {
	a := produce([]int{1, 2})
	b := produce([]int{3, 4, 5})
	sum := 0
	for v := range merge(a, b) {
		sum += v
	}
	fmt.Println("sum", sum)
}
