// want: ok
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: Store.Wait has a value receiver: it waits on a copy of the WaitGroup taken while
//   the counter is 2; the workers' Done go to the original, so the copy never reaches 0

package main

import (
	"fmt"
	"sync"
)

type Store struct {
	wg    sync.WaitGroup
	items chan int
}

func (s *Store) Wait() { s.wg.Wait() }

func main() {
	s := &Store{items: make(chan int, 4)}
	for i := 0; i < 2; i++ {
		s.wg.Add(1)
		go func(i int) {
			defer s.wg.Done()
			s.items <- i
		}(i)
	}
	s.Wait()
	close(s.items)
	for v := range s.items {
		fmt.Println(v)
	}
}
