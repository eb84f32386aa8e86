// want: partial-deadlock
// source: written for this corpus
// what: a goroutine selects on two channels neither of which is ever sent on or closed; main
//   returns and the goroutine is leaked

package main

import "fmt"

func waiter(a, b <-chan int) {
	select {
	case v := <-a:
		fmt.Println("a", v)
	case v := <-b:
		fmt.Println("b", v)
	}
}

func main() {
	a, b := make(chan int), make(chan int)
	go waiter(a, b)
	fmt.Println("main returns")
}
