// want: ok
// source: Godel (ICSE'18) Table 3 "fanin" (the fan-in pattern of dingo-hunter examples/popl17/fanin); rewritten
// what: two workers each send 3 values, a merging goroutine selects over both and forwards 6
//   values to c, main prints 6 (the paper's version loops for ever; here every loop is bounded)

package main

import "fmt"

func work(out chan<- int, v int) {
	for i := 0; i < 3; i++ {
		out <- v
	}
}

func fanin(ch1, ch2 <-chan int, c chan<- int) {
	for i := 0; i < 6; i++ {
		select {
		case s := <-ch1:
			c <- s
		case s := <-ch2:
			c <- s
		}
	}
}

func main() {
	input1 := make(chan int)
	input2 := make(chan int)
	go work(input1, 1)
	go work(input2, 2)
	c := make(chan int)
	go fanin(input1, input2, c)
	for i := 0; i < 6; i++ {
		fmt.Println(<-c)
	}
}
