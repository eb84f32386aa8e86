// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/cockroach/584 (cockroachdb/cockroach PR 584); rewritten as package main
// what: bootstrap() breaks out of its loop without unlocking when the gossip is closed; manage()
//   then blocks on the mutex for ever in the goroutine while main returns

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
			break // the mutex stays locked
		}
		g.mu.Unlock()
		break
	}
}

func (g *Gossip) manage() {
	for {
		g.mu.Lock()
		if g.closed {
			break
		}
		g.mu.Unlock()
		break
	}
}

func main() {
	g := &Gossip{closed: true}
	go func() {
		g.bootstrap()
		g.manage()
	}()
}
