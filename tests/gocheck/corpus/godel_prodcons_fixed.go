// want: ok
// source: the fix of Godel (ICSE'18) Table 3 program 15 "prod-cons" (the paper's Fig. 1), written for this corpus
// what: the consumer selects on ch1 and ch2 and switches a channel off (nil) once it is closed,
//   so it takes every value of both producers and stops when both are closed

package main

import "fmt"

func prod(ch chan<- int) {
	for i := 0; i < 5; i++ {
		ch <- i
	}
	close(ch)
}

func cons(ch1, ch2 <-chan int) {
	for ch1 != nil || ch2 != nil {
		select {
		case x, ok := <-ch1:
			if !ok {
				ch1 = nil
				continue
			}
			fmt.Println(x)
		case x, ok := <-ch2:
			if !ok {
				ch2 = nil
				continue
			}
			fmt.Println(x)
		}
	}
}

func main() {
	ch1, ch2 := make(chan int), make(chan int)
	go prod(ch1)
	go prod(ch2)
	cons(ch1, ch2)
}
