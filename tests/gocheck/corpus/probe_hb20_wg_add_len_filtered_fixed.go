// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb20: wg.Go starts and counts only the tasks that actually run

package main

import (
	"fmt"
	"sync"
)

type task struct {
	name     string
	disabled bool
}

type runner struct {
	mu   sync.Mutex
	done []string
}

func (r *runner) run(t task) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done = append(r.done, t.name)
}

func main() {
	tasks := []task{{"a", false}, {"b", true}, {"c", false}}
	r := &runner{}
	var wg sync.WaitGroup
	for _, t := range tasks {
		if t.disabled {
			continue
		}
		wg.Go(func() {
			r.run(t)
		})
	}
	wg.Wait()
	fmt.Println(r.done)
}
