// want: ok
// source: written for this corpus
// what: non-blocking sends with select-default drop values when the buffer is full

package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	dropped := 0
	for i := 0; i < 3; i++ {
		select {
		case ch <- i:
		default:
			dropped++
		}
	}
	fmt.Println(<-ch, dropped)
}
