// want: partial-deadlock
// source: Godel (ICSE'18) Table 3 program 15, "prod-cons" (rewritten from the paper's Fig. 1)
// what: two producers send 5 values each and close their channel; the consumer selects on ch1
//   twice (the paper's bug) instead of ch1 and ch2, so the second producer blocks for ever. The
//   paper's consumer loops for ever; here it takes 10 values and returns.

package main

import "fmt"

func prod(ch chan<- int) {
	for i := 0; i < 5; i++ {
		ch <- i
	}
	close(ch)
}

func cons(ch1, ch2 <-chan int) {
	for i := 0; i < 10; i++ {
		select {
		case x := <-ch1:
			fmt.Println(x)
		case x := <-ch2:
			fmt.Println(x)
		}
	}
}

func main() {
	ch1, ch2 := make(chan int), make(chan int)
	go prod(ch1)
	go prod(ch2)
	cons(ch1, ch1)
}
