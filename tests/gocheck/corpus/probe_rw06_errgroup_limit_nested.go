// want: global-deadlock
// source: written for chanfuzz as a held-out probe in the manner of real code bases (2026-12-01, third round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: errgroup with SetLimit(1): a task schedules a subtask on the same group and waits for
//   it; the subtask cannot get a token

package main

import (
	"fmt"
	"sync"
)

type Group struct {
	wg  sync.WaitGroup
	sem chan struct{}
	mu  sync.Mutex
	err error
}

func (g *Group) SetLimit(n int) { g.sem = make(chan struct{}, n) }

func (g *Group) Go(f func() error) {
	if g.sem != nil {
		g.sem <- struct{}{} // blocks while the limit is reached
	}
	g.wg.Add(1)
	go func() {
		defer func() {
			if g.sem != nil {
				<-g.sem
			}
			g.wg.Done()
		}()
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

func main() {
	var g Group
	g.SetLimit(1)
	g.Go(func() error {
		sub := make(chan int, 1)
		g.Go(func() error { // BUG: needs the token its parent holds
			sub <- 1
			return nil
		})
		if v := <-sub; v != 1 {
			return fmt.Errorf("bad subtask result %d", v)
		}
		return nil
	})
	fmt.Println(g.Wait())
}
