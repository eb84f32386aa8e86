// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb11: only the deferred wg.Done() remains

package main

import (
	"errors"
	"fmt"
	"sync"
)

var errTimeout = errors.New("timeout")

func fetch(id int) error {
	if id == 2 {
		return errTimeout
	}
	return nil
}

func main() {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			if err := fetch(id); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("fetch %d: %w", id, err))
				mu.Unlock()
				return
			}
		}(i)
	}
	wg.Wait()
	mu.Lock()
	fmt.Println(len(errs), "errors")
	mu.Unlock()
}
