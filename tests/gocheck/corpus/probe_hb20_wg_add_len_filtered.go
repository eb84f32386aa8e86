// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (hashicorp/serf-style) wg.Add(len(tasks)) is done up front, but the loop skips disabled
//   tasks without starting a goroutine for them, so the counter never reaches zero and main
//   waits for ever in wg.Wait after the workers finish

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
	wg.Add(len(tasks)) // BUG: counts the disabled task too
	for _, t := range tasks {
		if t.disabled {
			continue
		}
		go func() {
			defer wg.Done()
			r.run(t)
		}()
	}
	wg.Wait()
	fmt.Println(r.done)
}
