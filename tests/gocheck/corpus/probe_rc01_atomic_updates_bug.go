// want: global-deadlock
// source: Rosetta Code task 'Atomic updates', rewritten with a naive transfer
// what: transfer locks the source bucket and then the destination; goroutines moving values in
//   opposite directions can each hold one lock and wait for the other, main stuck in wg.Wait.
package main

import (
	"fmt"
	"sync"
)

type bucket struct {
	sync.Mutex
	val int
}

func transfer(from, to *bucket, amount int) {
	from.Lock()
	defer from.Unlock()
	if amount > from.val {
		amount = from.val
	}
	from.val -= amount
	to.Lock() // second lock taken in argument order
	to.val += amount
	to.Unlock()
}

func main() {
	bs := make([]*bucket, 4)
	for i := range bs {
		bs[i] = &bucket{val: 100}
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20000; i++ {
				from, to := bs[(g+i)%4], bs[(g+i+1)%4]
				if g%2 == 1 {
					from, to = to, from
				}
				transfer(from, to, i%7)
			}
		}(g)
	}
	wg.Wait()
	t := 0
	for _, b := range bs {
		t += b.val
	}
	fmt.Println("total:", t)
}
