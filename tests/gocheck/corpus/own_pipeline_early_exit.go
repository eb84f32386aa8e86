// want: partial-deadlock
// source: written for this corpus
// what: the consumer of a pipeline stops after the first value; the stages upstream stay
//   blocked on their sends for ever

package main

import "fmt"

func gen(n int) <-chan int {
	out := make(chan int)
	go func() {
		for i := 0; i < n; i++ {
			out <- i
		}
		close(out)
	}()
	return out
}

func square(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		for v := range in {
			out <- v * v
		}
		close(out)
	}()
	return out
}

func main() {
	for v := range square(gen(4)) {
		fmt.Println(v)
		break
	}
}
