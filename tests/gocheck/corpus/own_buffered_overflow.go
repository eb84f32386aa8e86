// want: global-deadlock
// source: written for this corpus
// what: main sends three values into a channel of capacity 2 before anyone receives:
//   the third send blocks for ever

package main

import "fmt"

func main() {
	ch := make(chan int, 2)
	for i := 0; i < 3; i++ {
		ch <- i
	}
	fmt.Println(<-ch)
}
