// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/cockroach/584 the fix of cockroachdb/cockroach PR 584 (unlock before break); rewritten as package main
// what: both loops unlock before they break; main waits for the goroutine on a channel

package main

import "sync"

type Gossip struct {
	mu     sync.Mutex
	closed bool
}

func (g *Gossip) bootstrap() {
	for {
		g.mu.Lock()
		if g.closed {
			g.mu.Unlock()
			break
		}
		g.mu.Unlock()
		break
	}
}

func (g *Gossip) manage() {
	for {
		g.mu.Lock()
		if g.closed {
			g.mu.Unlock()
			break
		}
		g.mu.Unlock()
		break
	}
}

func main() {
	g := &Gossip{closed: true}
	done := make(chan struct{})
	go func() {
		g.bootstrap()
		g.manage()
		close(done)
	}()
	<-done
}
