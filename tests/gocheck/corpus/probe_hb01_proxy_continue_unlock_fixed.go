// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb01: the error path unlocks before continuing

package main

import (
	"errors"
	"fmt"
	"sync"
)

type conn struct {
	id  int
	bad bool
}

type proxy struct {
	mu      sync.Mutex
	handled int
	lastID  int
}

var errBadConn = errors.New("bad connection")

func (p *proxy) register(c conn) error {
	if c.bad {
		return fmt.Errorf("conn %d: %w", c.id, errBadConn)
	}
	p.lastID = c.id
	return nil
}

func (p *proxy) serve(conns []conn, wg *sync.WaitGroup) {
	defer wg.Done()
	for _, c := range conns {
		p.mu.Lock()
		if err := p.register(c); err != nil {
			p.mu.Unlock()
			continue
		}
		p.handled++
		p.mu.Unlock()
	}
}

func main() {
	p := &proxy{}
	conns := []conn{{1, false}, {2, true}, {3, false}}
	var wg sync.WaitGroup
	wg.Add(1)
	go p.serve(conns, &wg)
	wg.Wait()
	fmt.Println("handled", p.handled)
}
