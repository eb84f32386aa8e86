// want: ok
// source: written for this corpus
// what: a producer sends 4 values and closes the channel; main ranges over it

package main

import "fmt"

func producer(ch chan<- int) {
	for i := 0; i < 4; i++ {
		ch <- i
	}
	close(ch)
}

func main() {
	ch := make(chan int)
	go producer(ch)
	for v := range ch {
		fmt.Println(v)
	}
}
