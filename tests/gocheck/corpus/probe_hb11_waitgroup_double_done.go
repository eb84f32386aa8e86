// want: channel-safety
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (syncthing-style) a fetcher goroutine has `defer wg.Done()` and also calls wg.Done()
//   on its error path, so the WaitGroup counter goes negative (panic)

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
				wg.Done() // BUG: Done again on top of the deferred one
				return
			}
		}(i)
	}
	wg.Wait()
	mu.Lock()
	fmt.Println(len(errs), "errors")
	mu.Unlock()
}
