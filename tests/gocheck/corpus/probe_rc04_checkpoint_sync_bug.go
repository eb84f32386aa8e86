// want: global-deadlock
// source: Rosetta Code task 'Checkpoint synchronization', rewritten with a hand-made barrier
// what: workers meet at a channel-based checkpoint each round, but the worker whose supply runs
//   out leaves after round 2 without telling the checkpoint; the others and main block for ever.
package main

import (
	"fmt"
	"sync"
	"time"
)

type checkpoint struct {
	arrive chan int
	depart chan struct{}
	n      int
}

func (c *checkpoint) run(rounds int) {
	for r := 0; r < rounds; r++ {
		for i := 0; i < c.n; i++ {
			<-c.arrive
		}
		fmt.Println("checkpoint: all parts in for round", r+1)
		for i := 0; i < c.n; i++ {
			c.depart <- struct{}{}
		}
	}
}

func main() {
	const workers, rounds = 3, 4
	cp := &checkpoint{arrive: make(chan int), depart: make(chan struct{}), n: workers}
	go cp.run(rounds)

	supply := []int{4, 4, 2} // worker 2 only has material for two parts
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				if supply[id] == 0 {
					fmt.Printf("worker %d: out of material\n", id)
					return
				}
				supply[id]--
				time.Sleep(time.Millisecond)
				cp.arrive <- id
				<-cp.depart
			}
		}(w)
	}
	wg.Wait()
	fmt.Println("done")
}
