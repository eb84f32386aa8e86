// want: ok
// source: written for this corpus
// what: two goroutines pass a ball back and forth three times, then main gets it back

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
	for i := 0; i < 3; i++ {
		a <- i
		fmt.Println(<-b)
	}
}
