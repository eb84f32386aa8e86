// want: global-deadlock
// source: Godel (ICSE'18) Table 3 "mismatch", from dingo-hunter (CC'16) examples/popl17/mismatch; rewritten
// what: one sender, two receivers that each forward to done, main waits for two done values;
//   the second receiver and main block for ever. The paper's Work goroutine loops for ever (so
//   there it is a partial deadlock); here it does 3 steps, after which every goroutine is blocked.

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
	go Recv(ch, done)
	go Work()
	<-done
	<-done
}
