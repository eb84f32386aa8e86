// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a background metrics reporter started with `for range time.Tick`
// what: a reporter goroutine loops on time.Tick for the life of the process; when main returns
//   it is waiting for the next tick, which will come: it is not blocked for ever (no leak)
package main

import (
	"fmt"
	"sync"
	"time"
)

type stats struct {
	mu       sync.Mutex
	requests int
}

func (s *stats) inc() {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
}

func main() {
	s := &stats{}
	go func() {
		for range time.Tick(time.Millisecond) {
			s.mu.Lock()
			n := s.requests
			s.mu.Unlock()
			_ = n
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.inc()
		}()
	}
	wg.Wait()
	fmt.Println("served", s.requests)
}
