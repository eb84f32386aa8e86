// want: ok
// source: classic 'Readers-writers problem' (Rosetta Code style), rewritten with sync.RWMutex
// what: four readers look up entries under RLock while two writers update the table under Lock;
//   no lock is taken twice, main waits for everybody.
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

func (t *table) get(k string) (int, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	v, ok := t.data[k]
	return v, ok
}

func (t *table) put(k string, v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.data[k] = v
}

func main() {
	t := &table{data: map[string]int{}}
	keys := []string{"a", "b", "c"}
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				t.put(keys[i%len(keys)], w*1000+i)
				time.Sleep(300 * time.Microsecond)
			}
		}(w)
	}
	hits := make([]int, 4)
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if _, ok := t.get(keys[(r+i)%len(keys)]); ok {
					hits[r]++
				}
				time.Sleep(100 * time.Microsecond)
			}
		}(r)
	}
	wg.Wait()
	fmt.Println("reader hits:", hits)
}
