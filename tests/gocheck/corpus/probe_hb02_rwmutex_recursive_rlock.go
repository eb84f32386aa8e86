// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (cockroach-style) sum() holds the read lock and calls lookup(), which read-locks again;
//   if split() asks for the write lock in between, the pending writer blocks the nested RLock
//   and the writer waits for the outer RLock (interleaving-dependent)

package main

import (
	"fmt"
	"sync"
)

type rangeDesc struct {
	start, end int
}

type store struct {
	mu     sync.RWMutex
	ranges []rangeDesc
	splits int
}

func (s *store) lookup(i int) rangeDesc {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.ranges[i]
}

func (s *store) sum() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	total := 0
	for i := 0; i < 2; i++ {
		r := s.lookup(i) // BUG: recursive read lock
		total += r.end - r.start
	}
	return total
}

func (s *store) split() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.splits++
}

func main() {
	s := &store{ranges: []rangeDesc{{0, 10}, {10, 20}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		fmt.Println("sum", s.sum())
	}()
	go func() {
		defer wg.Done()
		s.split()
	}()
	wg.Wait()
}
