// want: ok
// source: Rosetta Code task 'Dining philosophers', rewritten (resource hierarchy solution)
// what: five philosophers always lock the lower-numbered fork first, so no cycle of waiting
//   can form; main waits for all meals to finish.
package main

import (
	"fmt"
	"sync"
	"time"
)

type philosopher struct {
	name          string
	first, second *sync.Mutex
	meals         int
}

func (p *philosopher) dine(rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < rounds; i++ {
		p.first.Lock()
		time.Sleep(2 * time.Millisecond)
		p.second.Lock()
		p.meals++
		fmt.Printf("%s is eating (meal %d)\n", p.name, p.meals)
		time.Sleep(time.Millisecond)
		p.second.Unlock()
		p.first.Unlock()
		time.Sleep(time.Millisecond)
	}
}

func main() {
	names := []string{"Aristotle", "Kant", "Spinoza", "Marx", "Russell"}
	forks := make([]sync.Mutex, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		a, b := i, (i+1)%len(forks)
		if b < a {
			a, b = b, a
		}
		p := &philosopher{name: n, first: &forks[a], second: &forks[b]}
		wg.Add(1)
		go p.dine(3, &wg)
	}
	wg.Wait()
	fmt.Println("everyone has eaten")
}
