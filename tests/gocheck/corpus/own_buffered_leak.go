// want: partial-deadlock
// source: written for this corpus
// what: a goroutine sends three values into a channel of capacity 1; main takes one and
//   returns, so the goroutine's third send blocks for ever

package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	go func() {
		for i := 0; i < 3; i++ {
			ch <- i
		}
	}()
	fmt.Println(<-ch)
}
