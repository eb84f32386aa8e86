// want: partial-deadlock
// source: Godel (ICSE'18) Table 3 program 16 (type live, program not: an erroneous loop), written from the paper's § 2.2 description
// what: main's loop can only send to the receiver in a branch whose condition never holds, so
//   the receiver blocks for ever; the behavioural type (branches as choices) looks live. The
//   paper's loop does not terminate; here it runs 10 times and main returns.

package main

import "fmt"

func recv(ch <-chan int, done chan<- bool) {
	v := <-ch
	fmt.Println("received", v)
	done <- true
}

func main() {
	ch := make(chan int)
	done := make(chan bool, 1)
	go recv(ch, done)
	for i := 0; i < 10; i++ {
		if i < 0 {
			ch <- i
		}
	}
	fmt.Println("main done")
}
