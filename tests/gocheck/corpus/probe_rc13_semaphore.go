// want: ok
// source: Rosetta Code task 'Metered concurrency', rewritten (counting semaphore as a buffered channel)
// what: six workers share a semaphore of two slots; each acquires, works, and releases with defer
//   even on its error path; main waits for all.
package main

import (
	"fmt"
	"sync"
	"time"
)

func work(id int, sem chan struct{}) error {
	sem <- struct{}{}
	defer func() { <-sem }()
	time.Sleep(time.Millisecond)
	if id%3 == 0 {
		return fmt.Errorf("worker %d: bad input", id)
	}
	fmt.Printf("worker %d done (%d slots in use)\n", id, len(sem))
	return nil
}

func main() {
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i := 1; i <= 6; i++ {
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
