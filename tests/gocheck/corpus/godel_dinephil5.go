// want: ok
// source: Godel (ICSE'18) Table 3 program 19 "dinephil5" (program 6 with five philosophers) (dingo-hunter examples/popl17/dinephil); rewritten
// what: five philosophers, forks as goroutines; a philosopher who gets one fork tries the other
//   with select-default and puts the first back if it is taken, so there is no deadlock. Each eats
//   twice here, then main stops the fork goroutines through a quit channel.

package main

import "fmt"

func Fork(fork chan int, quit chan struct{}) {
	for {
		select {
		case fork <- 1:
			<-fork
		case <-quit:
			return
		}
	}
}

func phil(fork1, fork2 chan int, id int, done chan<- int) {
	eaten := 0
	for eaten < 2 {
		select {
		case x1 := <-fork1:
			select {
			case x2 := <-fork2:
				fmt.Printf("phil %d eats\n", id)
				eaten++
				fork1 <- x1
				fork2 <- x2
			default:
				fork1 <- x1
			}
		case x1 := <-fork2:
			select {
			case x2 := <-fork1:
				fmt.Printf("phil %d eats\n", id)
				eaten++
				fork2 <- x1
				fork1 <- x2
			default:
				fork2 <- x1
			}
		}
	}
	done <- id
}

func main() {
	fork1 := make(chan int)
	fork2 := make(chan int)
	fork3 := make(chan int)
	fork4 := make(chan int)
	fork5 := make(chan int)
	quit := make(chan struct{})
	done := make(chan int)
	go Fork(fork1, quit)
	go Fork(fork2, quit)
	go Fork(fork3, quit)
	go Fork(fork4, quit)
	go Fork(fork5, quit)
	go phil(fork1, fork2, 0, done)
	go phil(fork2, fork3, 1, done)
	go phil(fork3, fork4, 2, done)
	go phil(fork4, fork5, 3, done)
	go phil(fork5, fork1, 4, done)
	for i := 0; i < 5; i++ {
		<-done
	}
	close(quit)
}
