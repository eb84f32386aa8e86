// want: channel-safety
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: reach closes the channel of a stage and, by switch fallthrough, of every earlier stage; a goroutine reaches
//   stage 0 and main reaches stage 2, so whichever runs second closes started again.

package main

import (
	"fmt"
	"sync"
)

type Phases struct {
	mu                     sync.Mutex
	started, loaded, ready chan struct{}
}

// reach marks stage as reached, together with every stage before it.
func (p *Phases) reach(stage int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch stage {
	case 2:
		close(p.ready)
		fallthrough
	case 1:
		close(p.loaded)
		fallthrough
	case 0:
		close(p.started)
	}
}

func main() {
	p := &Phases{started: make(chan struct{}), loaded: make(chan struct{}), ready: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.reach(0)
		<-p.ready
	}()
	p.reach(2)
	<-done
	fmt.Println("ready")
}
