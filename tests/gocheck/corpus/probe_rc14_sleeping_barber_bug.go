// want: partial-deadlock
// source: Rosetta Code task 'Sleeping barber' (classic problem), rewritten with a leak
// what: main waits only for the customers, never closes the waiting room, and returns; the
//   barber goroutine stays blocked for ever in `for c := range room`.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	room := make(chan int, 3)
	var served sync.WaitGroup
	go func() { // barber
		for c := range room {
			fmt.Println("barber: cutting hair of customer", c)
			time.Sleep(time.Millisecond)
			served.Done()
		}
		fmt.Println("barber: shop closed")
	}()

	var arrivals sync.WaitGroup
	for c := 1; c <= 6; c++ {
		arrivals.Add(1)
		go func(c int) {
			defer arrivals.Done()
			time.Sleep(time.Duration(c) * time.Millisecond)
			served.Add(1)
			select {
			case room <- c:
			default:
				served.Done()
				fmt.Println("customer", c, "left: no free chair")
			}
		}(c)
	}
	arrivals.Wait()
	served.Wait()
	fmt.Println("all customers handled")
}
