// want: ok
// source: Godel (ICSE'18) Table 3 "forselect" (GoInfer/Gong POPL'17 examples; dingo-hunter examples/popl17/forselect); rewritten
// what: two goroutines in for-select loops, each offering a send and a receive; sel2's send on a
//   meets sel1's receive and both report on done and return; main receives both reports

package main

import "fmt"

func sel1(a, b chan int, done chan<- struct{}) {
	for {
		select {
		case <-a:
			fmt.Println("sel1: recv")
			done <- struct{}{}
			return
		case b <- 1:
			fmt.Println("sel1: send")
		}
	}
}

func sel2(a, b chan int, done chan<- struct{}) {
	for {
		select {
		case <-b:
			fmt.Println("sel2: recv")
		case a <- 2:
			fmt.Println("sel2: send")
			done <- struct{}{}
			return
		}
	}
}

func main() {
	done := make(chan struct{})
	a := make(chan int)
	b := make(chan int)
	go sel1(a, b, done)
	go sel2(a, b, done)
	<-done
	<-done
}
