// want: global-deadlock
// source: "for range over a channel nobody closes" in a pipeline, a staple of Go bug reports
// what: the parse stage forgets to close its output when its input ends, so the count stage's
//   `for range` never finishes and main waits for the count for ever.
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
		for l := range in {
			if n, err := strconv.Atoi(strings.TrimSpace(l)); err == nil {
				out <- n
			}
		}
		// missing: close(out)
	}()
	return out
}

func sum(in <-chan int) <-chan int {
	res := make(chan int)
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
