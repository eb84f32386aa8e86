// want: ok
// source: Godel (ICSE'18) Table 3 "fixed", from dingo-hunter (CC'16) examples/popl17/fixed; rewritten
// what: the fixed mismatch: one sender, one receiver, main waits for one done value
//   (the paper's endless Work goroutine does 3 steps here)

package main

import "fmt"

func Work() {
	for i := 0; i < 3; i++ {
		fmt.Println("Working")
	}
}

func Send(ch chan<- int) { ch <- 42 }

func Recv(ch <-chan int, done chan<- int) { done <- <-ch }

func main() {
	ch, done := make(chan int), make(chan int)
	go Send(ch)
	go Recv(ch, done)
	go Work()
	<-done
}
