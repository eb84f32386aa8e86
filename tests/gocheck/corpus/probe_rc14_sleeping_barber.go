// want: ok
// source: Rosetta Code task 'Sleeping barber' (classic problem), rewritten
// what: customers try to take one of three chairs (non-blocking send) or leave; the barber cuts
//   hair until the shop closes; main closes the waiting room after all customers have arrived.
package main

import (
	"fmt"
	"sync"
	"time"
)

func barber(room <-chan int, done chan<- int) {
	served := 0
	for c := range room {
		fmt.Println("barber: cutting hair of customer", c)
		time.Sleep(2 * time.Millisecond)
		served++
	}
	done <- served
}

func main() {
	room := make(chan int, 3)
	done := make(chan int)
	go barber(room, done)

	var arrivals sync.WaitGroup
	turnedAway := 0
	var mu sync.Mutex
	for c := 1; c <= 8; c++ {
		arrivals.Add(1)
		go func(c int) {
			defer arrivals.Done()
			time.Sleep(time.Duration(c) * time.Millisecond)
			select {
			case room <- c:
			default:
				mu.Lock()
				turnedAway++
				mu.Unlock()
			}
		}(c)
	}
	arrivals.Wait()
	close(room)
	served := <-done
	fmt.Println("served", served, "turned away", turnedAway)
}
