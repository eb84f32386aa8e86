// want: ok
// source: written for this corpus
// what: channels kept in a slice whose length comes from the command line; the program is
//   fine (unsupported until the checker took lengths from the input up to a bound: an
//   unknown loop bound)

package main

import (
	"fmt"
	"os"
)

func main() {
	n := len(os.Args) + 1
	chans := make([]chan int, n)
	for i := range chans {
		chans[i] = make(chan int, 1)
		chans[i] <- i
	}
	sum := 0
	for _, c := range chans {
		sum += <-c
	}
	fmt.Println(sum)
}
