// want: ok
// source: written for this corpus
// what: main sends two values into a channel of capacity 2, then receives both

package main

import "fmt"

func main() {
	ch := make(chan int, 2)
	ch <- 1
	ch <- 2
	fmt.Println(<-ch + <-ch)
}
