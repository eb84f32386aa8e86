// want: global-deadlock
// source: Godel (ICSE'18) Table 3 "philo" (gopherlyzer's philosophers; dingo-hunter examples/philo); rewritten
// what: three philosophers take two fork tokens from one unbuffered channel and put them back;
//   if each takes one token all block (global deadlock). Here each eats twice, so also the last
//   philosopher's put-back finds no taker: a deadlock when that is main, a leak otherwise.

package main

import "fmt"

func philo(id int, forks chan int) {
	for i := 0; i < 2; i++ {
		<-forks
		<-forks
		fmt.Printf("%d eats\n", id)
		forks <- 1
		forks <- 1
	}
}

func main() {
	forks := make(chan int)
	go func() { forks <- 1 }()
	go func() { forks <- 1 }()
	go func() { forks <- 1 }()
	go philo(1, forks)
	go philo(2, forks)
	philo(3, forks)
}
