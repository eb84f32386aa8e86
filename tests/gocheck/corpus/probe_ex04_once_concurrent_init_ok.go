// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (grpc-style) two goroutines call a lazily started event loop through sync.Once; the
//   init function takes a registry lock before making the events channel, so the second
//   caller must wait inside Once.Do until the channel exists (Once.Do returns only after f
//   has finished); both then send on a real, buffered channel

package main

import (
	"fmt"
	"sync"
)

type registry struct {
	mu    sync.Mutex
	count int
}

type loop struct {
	once   sync.Once
	reg    *registry
	events chan string
}

func (l *loop) start() {
	l.reg.mu.Lock()
	l.reg.count++
	l.reg.mu.Unlock()
	l.events = make(chan string, 2)
}

func (l *loop) Post(e string) {
	l.once.Do(l.start)
	l.events <- e
}

func main() {
	l := &loop{reg: &registry{}}
	var wg sync.WaitGroup
	for _, e := range []string{"a", "b"} {
		wg.Add(1)
		go func(e string) {
			defer wg.Done()
			l.Post(e)
		}(e)
	}
	wg.Wait()
	fmt.Println(<-l.events, <-l.events)
}
