// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Go by Example "Non-Blocking Channel Operations", "Closing Channels" and "Range over Channels"
// what: non-blocking selects with default on empty and receiver-less channels; a worker reads a
//   buffered jobs channel with the two-value receive until main closes it and then signals done;
//   a buffered queue of two is closed and ranged over; finally a producer sends 100 values on a
//   buffered channel of 10 that main drains with range.

package main

import "fmt"

func main() {
	messages := make(chan string)
	signals := make(chan bool)

	select {
	case msg := <-messages:
		fmt.Println("received message", msg)
	default:
		fmt.Println("no message received")
	}

	msg := "hi"
	select {
	case messages <- msg:
		fmt.Println("sent message", msg)
	default:
		fmt.Println("no message sent")
	}

	select {
	case msg := <-messages:
		fmt.Println("received message", msg)
	case sig := <-signals:
		fmt.Println("received signal", sig)
	default:
		fmt.Println("no activity")
	}

	jobs := make(chan int, 5)
	done := make(chan bool)
	go func() {
		for {
			j, more := <-jobs
			if more {
				fmt.Println("received job", j)
			} else {
				fmt.Println("received all jobs")
				done <- true
				return
			}
		}
	}()
	for j := 1; j <= 3; j++ {
		jobs <- j
		fmt.Println("sent job", j)
	}
	close(jobs)
	fmt.Println("sent all jobs")
	<-done
	_, ok := <-jobs
	fmt.Println("received more jobs:", ok)

	queue := make(chan string, 2)
	queue <- "one"
	queue <- "two"
	close(queue)
	for elem := range queue {
		fmt.Println(elem)
	}

	nums := make(chan int, 10)
	go func() {
		defer close(nums)
		for i := 0; i < 100; i++ {
			nums <- i
		}
	}()
	sum := 0
	for n := range nums {
		sum += n
	}
	fmt.Println("sum:", sum)
}
