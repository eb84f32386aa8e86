// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS add-users fail-index add-orders fail-fk), in the style of a migration runner that aborts the remaining steps on failure
// what: every failing step closes the shared abort channel itself; with two or more failing
//   steps (names starting with "fail") the second close panics with "close of closed
//   channel". One failing step is fine.
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

type runner struct {
	abort chan struct{}
	mu    sync.Mutex
	log   []string
}

func (r *runner) record(msg string) {
	r.mu.Lock()
	r.log = append(r.log, msg)
	r.mu.Unlock()
}

func (r *runner) step(name string, wg *sync.WaitGroup) {
	defer wg.Done()
	select {
	case <-r.abort:
		r.record(name + ": skipped")
		return
	default:
	}
	time.Sleep(2 * time.Millisecond) // run the migration step
	if strings.HasPrefix(name, "fail") {
		r.record(name + ": failed, aborting")
		close(r.abort)
		return
	}
	r.record(name + ": applied")
}

func main() {
	r := &runner{abort: make(chan struct{})}
	var wg sync.WaitGroup
	for _, s := range os.Args[1:] {
		wg.Add(1)
		go r.step(s, &wg)
	}
	wg.Wait()
	for _, l := range r.log {
		fmt.Println(l)
	}
}
