// want: partial-deadlock
// source: Godel (ICSE'18) Table 3 "fanin" with its endless merge loop kept (dingo-hunter examples/popl17/fanin); rewritten
// what: the merging goroutine is a for-select loop without exit: once main has its 6 values
//   it stays blocked in the select for ever (a leak when main returns)

package main

import "fmt"

func work(out chan<- int, v int) {
	for i := 0; i < 3; i++ {
		out <- v
	}
}

func main() {
	input1 := make(chan int)
	input2 := make(chan int)
	go work(input1, 1)
	go work(input2, 2)
	c := make(chan int)
	go func() {
		for {
			select {
			case s := <-input1:
				c <- s
			case s := <-input2:
				c <- s
			}
		}
	}()
	for i := 0; i < 6; i++ {
		fmt.Println(<-c)
	}
}
