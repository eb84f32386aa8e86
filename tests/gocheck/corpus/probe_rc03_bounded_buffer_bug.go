// want: channel-safety
// source: Rosetta Code / classic 'Producer-consumer (bounded buffer)', rewritten with a bug
// what: each producer closes the shared buffer when it is done; the first to finish closes it
//   while the other is still sending (send on closed channel) or closes it again.
package main

import (
	"fmt"
	"sync"
	"time"
)

func produce(id, n int, buf chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < n; i++ {
		buf <- id*100 + i
		time.Sleep(time.Duration(id+1) * 200 * time.Microsecond)
	}
	close(buf) // "I'm done producing"
}

func main() {
	buf := make(chan int, 3)
	var wg sync.WaitGroup
	wg.Add(2)
	go produce(0, 5, buf, &wg)
	go produce(1, 8, buf, &wg)

	n := 0
	for v := range buf {
		fmt.Println("consumed", v)
		n++
	}
	wg.Wait()
	fmt.Println("consumed", n, "items")
}
