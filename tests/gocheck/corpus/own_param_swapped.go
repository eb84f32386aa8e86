// want: global-deadlock
// source: written for this corpus
// what: the channels are passed to the function swapped, so the player waits on pong while
//   main sends on ping

package main

import "fmt"

func player(in <-chan int, out chan<- int) {
	v := <-in
	out <- v + 1
}

func main() {
	ping, pong := make(chan int), make(chan int)
	go player(pong, ping)
	ping <- 1
	fmt.Println(<-pong)
}
