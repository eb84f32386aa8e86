// want: global-deadlock
// source: Godel (ICSE'18) Table 3 program 7, the traditional deadlocking three philosophers; written from the paper's description
// what: each philosopher takes its left fork, then blocks for its right one; when all three hold
//   their left fork every goroutine (forks, philosophers, main waiting on done) is blocked.
//   Interleaving-dependent: each eats 20 times, and a run may finish without the deadlock.

package main

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

func phil(left, right chan int, done chan<- bool) {
	for i := 0; i < 20; i++ {
		x := <-left
		y := <-right
		left <- x
		right <- y
	}
	done <- true
}

func main() {
	f1, f2, f3 := make(chan int), make(chan int), make(chan int)
	quit := make(chan struct{})
	done := make(chan bool)
	go Fork(f1, quit)
	go Fork(f2, quit)
	go Fork(f3, quit)
	go phil(f1, f2, done)
	go phil(f2, f3, done)
	go phil(f3, f1, done)
	for i := 0; i < 3; i++ {
		<-done
	}
	close(quit)
}
