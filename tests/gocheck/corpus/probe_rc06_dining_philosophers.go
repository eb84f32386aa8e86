// want: global-deadlock
// source: Rosetta Code task 'Dining philosophers', rewritten (naive left-then-right fork order)
// what: five philosophers each lock their left fork, think briefly, then lock their right fork;
//   when all five hold their left fork at once every philosopher (and main in wg.Wait) blocks.
package main

import (
	"fmt"
	"sync"
	"time"
)

type fork struct{ sync.Mutex }

type philosopher struct {
	name        string
	left, right *fork
	meals       int
}

func (p *philosopher) dine(rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < rounds; i++ {
		p.left.Lock()
		fmt.Printf("%s picked up left fork\n", p.name)
		time.Sleep(5 * time.Millisecond) // reaching for the other fork
		p.right.Lock()
		p.meals++
		fmt.Printf("%s is eating (meal %d)\n", p.name, p.meals)
		time.Sleep(time.Millisecond)
		p.right.Unlock()
		p.left.Unlock()
		time.Sleep(time.Millisecond) // thinking
	}
}

func main() {
	names := []string{"Aristotle", "Kant", "Spinoza", "Marx", "Russell"}
	forks := make([]*fork, len(names))
	for i := range forks {
		forks[i] = new(fork)
	}
	var wg sync.WaitGroup
	for i, n := range names {
		p := &philosopher{name: n, left: forks[i], right: forks[(i+1)%len(forks)]}
		wg.Add(1)
		go p.dine(3, &wg)
	}
	wg.Wait()
	fmt.Println("table is empty")
}
