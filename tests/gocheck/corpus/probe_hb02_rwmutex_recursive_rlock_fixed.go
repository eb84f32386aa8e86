// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb02: sum() calls lookupLocked(), which assumes the caller holds the
//   read lock, so no goroutine read-locks twice

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

func (s *store) lookupLocked(i int) rangeDesc {
	return s.ranges[i]
}

func (s *store) sum() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	total := 0
	for i := 0; i < 2; i++ {
		r := s.lookupLocked(i)
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
