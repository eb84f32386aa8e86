// want: ok
// source: written for this corpus
// what: channels are passed to a function in the right order: ping then pong

package main

import "fmt"

func player(in <-chan int, out chan<- int) {
	v := <-in
	out <- v + 1
}

func main() {
	ping, pong := make(chan int), make(chan int)
	go player(ping, pong)
	ping <- 1
	fmt.Println(<-pong)
}
