// want: ok
// source: Godel (ICSE'18) Table 3 "cond-recur" (GoInfer/Gong POPL'17 examples; dingo-hunter examples/popl17/cond-recur); rewritten
// what: a goroutine sends 3 values in a loop with a conditional inside, then signals done; main
//   receives in a labelled for-select loop until done

package main

import "fmt"

func x(ch chan<- int, done chan<- struct{}) {
	i := 0
	for {
		if i < 3 {
			ch <- i
			i++
		} else {
			done <- struct{}{}
			return
		}
	}
}

func main() {
	done := make(chan struct{})
	ch := make(chan int)
	go x(ch, done)
FINISH:
	for {
		select {
		case v := <-ch:
			fmt.Println(v)
		case <-done:
			break FINISH
		}
	}
}
