// want: channel-safety
// source: written for this corpus
// what: the producer closes its channel when it is done and again in a deferred cleanup:
//   close of closed channel when the function returns

package main

import "fmt"

func produce(ch chan<- int) {
	defer close(ch)
	for i := 0; i < 3; i++ {
		ch <- i
	}
	close(ch)
}

func main() {
	ch := make(chan int, 3)
	produce(ch)
	for v := range ch {
		fmt.Println(v)
	}
}
