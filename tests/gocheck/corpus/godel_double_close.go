// want: channel-safety
// source: Godel (ICSE'18) Table 3 program 17 (a channel closed twice), written from the paper's description
// what: a producer closes the channel after sending and main closes it again after receiving:
//   close of closed channel in every run

package main

import "fmt"

func prod(ch chan<- int) {
	for i := 0; i < 3; i++ {
		ch <- i
	}
	close(ch)
}

func main() {
	ch := make(chan int)
	go prod(ch)
	for v := range ch {
		fmt.Println(v)
	}
	close(ch)
}
