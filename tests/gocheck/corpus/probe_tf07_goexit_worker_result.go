// want: global-deadlock
// source: written for chanfuzz as a held-out probe of test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: runTask sends a task's result after running it and from a recovering defer on a panic;
//   a task that calls runtime.Goexit skips the send, and recover() returns nil during a Goexit,
//   so no result is sent for it and the test blocks for ever waiting for the last one

package tasks

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
)

var errAborted = errors.New("task aborted")

type result struct {
	id  int
	err error
}

// runTask runs task and sends its result; a panicking task reports its panic as an error.
func runTask(id int, task func() error, results chan<- result) {
	defer func() {
		if p := recover(); p != nil {
			results <- result{id, fmt.Errorf("panic: %v", p)}
		}
	}()
	results <- result{id, task()}
}

func TestRunTasks(t *testing.T) {
	tasks := []func() error{
		func() error { return nil },
		func() error { runtime.Goexit(); return nil }, // a task that aborts its goroutine
		func() error { panic("boom") },
		func() error { return errors.New("bad input") },
	}
	results := make(chan result)
	for i, task := range tasks {
		go runTask(i, task, results)
	}
	errs := make([]error, len(tasks))
	for range tasks {
		r := <-results
		errs[r.id] = r.err
	}
	if errs[0] != nil || !errors.Is(errs[1], errAborted) || errs[2] == nil || errs[3] == nil {
		t.Errorf("errors = %v", errs)
	}
}
