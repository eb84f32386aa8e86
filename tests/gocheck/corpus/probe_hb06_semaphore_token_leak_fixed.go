// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb06: the token is released with defer, on every return path

package main

import (
	"fmt"
	"sync"
)

type limiter struct {
	sem chan struct{}
}

func (l *limiter) acquire() { l.sem <- struct{}{} }
func (l *limiter) release() { <-l.sem }

func process(id int) error {
	if id == 1 {
		return fmt.Errorf("task %d failed", id)
	}
	return nil
}

func (l *limiter) run(id int) error {
	l.acquire()
	defer l.release()
	if err := process(id); err != nil {
		return err
	}
	return nil
}

func main() {
	l := &limiter{sem: make(chan struct{}, 1)}
	errs := make(chan error, 3)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			if err := l.run(id); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		fmt.Println(err)
	}
}
