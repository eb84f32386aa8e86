// want: global-deadlock
// source: Rosetta Code task 'Metered concurrency', rewritten; missing release on an error path
// what: workers release their semaphore slot only on success; the two failing workers keep their
//   slots for ever, so the remaining workers block acquiring and main blocks in wg.Wait.
package main

import (
	"fmt"
	"sync"
	"time"
)

func work(id int, sem chan struct{}) error {
	sem <- struct{}{}
	time.Sleep(time.Millisecond)
	if id%3 == 0 {
		return fmt.Errorf("worker %d: bad input", id) // slot never released
	}
	fmt.Printf("worker %d done\n", id)
	<-sem
	return nil
}

func main() {
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i := 1; i <= 7; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := work(i, sem); err != nil {
				fmt.Println(err)
			}
		}(i)
	}
	wg.Wait()
}
