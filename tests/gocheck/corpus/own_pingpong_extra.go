// want: global-deadlock
// source: written for this corpus
// what: main plays four rounds against a player that plays three: the fourth send blocks

package main

import "fmt"

func player(in <-chan int, out chan<- int, rounds int) {
	for i := 0; i < rounds; i++ {
		out <- 1 + <-in
	}
}

func main() {
	a, b := make(chan int), make(chan int)
	go player(a, b, 3)
	for i := 0; i < 4; i++ {
		a <- i
		fmt.Println(<-b)
	}
}
