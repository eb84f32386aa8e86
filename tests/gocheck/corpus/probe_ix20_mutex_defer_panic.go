// want: global-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a handler recovers from a panic but the lock was taken without defer, so the next call blocks

package main

import (
	"fmt"
	"sync"
)

type Store struct {
	mu sync.Mutex
	m  map[string]int
}

func (s *Store) Inc(k string) {
	s.mu.Lock()
	if k == "" {
		panic("empty key")
	}
	s.m[k]++
	s.mu.Unlock()
}

func safe(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	f()
	return nil
}

func main() {
	s := &Store{m: map[string]int{}}
	fmt.Println(safe(func() { s.Inc("") }))
	fmt.Println(safe(func() { s.Inc("a") }))
}
