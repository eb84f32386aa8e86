// want: ok
// source: "for range over a channel nobody closes" in a pipeline, fixed
// what: every stage closes its output channel with defer once its input is exhausted, so each
//   downstream `for range` terminates and main receives the total.
package main

import (
	"fmt"
	"strconv"
	"strings"
)

func lines(text string) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		for _, l := range strings.Split(text, "\n") {
			out <- l
		}
	}()
	return out
}

func parse(in <-chan string) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for l := range in {
			if n, err := strconv.Atoi(strings.TrimSpace(l)); err == nil {
				out <- n
			}
		}
	}()
	return out
}

func sum(in <-chan int) <-chan int {
	res := make(chan int, 1)
	go func() {
		total := 0
		for n := range in {
			total += n
		}
		res <- total
	}()
	return res
}

func main() {
	fmt.Println("total:", <-sum(parse(lines("1\n2\nthree\n4\n5"))))
}
