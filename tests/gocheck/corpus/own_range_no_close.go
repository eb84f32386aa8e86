// want: global-deadlock
// source: written for this corpus
// what: the producer forgets to close the channel; main's for-range waits for ever after the
//   last value

package main

import "fmt"

func producer(ch chan<- int) {
	for i := 0; i < 4; i++ {
		ch <- i
	}
}

func main() {
	ch := make(chan int)
	go producer(ch)
	for v := range ch {
		fmt.Println(v)
	}
}
