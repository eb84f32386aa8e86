// want: global-deadlock
// source: classic 'Readers-writers problem' with sync.RWMutex; the recursive RLock bug seen in Go projects
// what: report() holds RLock and calls get(), which RLocks again; a writer's Lock between the
//   two makes the nested RLock wait behind the writer, which waits for the first RLock.
package main

import (
	"fmt"
	"sync"
	"time"
)

type table struct {
	mu   sync.RWMutex
	data map[string]int
}

func (t *table) get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.data[k]
}

func (t *table) put(k string, v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.data[k] = v
}

func (t *table) report(keys []string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	sum := 0
	for _, k := range keys {
		time.Sleep(2 * time.Millisecond) // formatting, logging ...
		sum += t.get(k)                  // nested RLock
	}
	return sum
}

func main() {
	t := &table{data: map[string]int{"a": 1, "b": 2, "c": 3}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			fmt.Println("report:", t.report([]string{"a", "b", "c"}))
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 5; i++ {
			time.Sleep(time.Millisecond)
			t.put("a", i)
		}
	}()
	wg.Wait()
}
