// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/30408 the fix of moby/moby PR 30408 (a failed activation also ends the wait); rewritten as package main
// what: waitActive() stops waiting when activation has failed, so the waiter returns the error

package main

import (
	"errors"
	"sync"
)

type Plugin struct {
	activateWait *sync.Cond
	activateErr  error
	activated    bool
}

func (p *Plugin) waitActive() error {
	p.activateWait.L.Lock()
	for !p.activated && p.activateErr == nil {
		p.activateWait.Wait()
	}
	p.activateWait.L.Unlock()
	return p.activateErr
}

func main() {
	p := &Plugin{activateWait: sync.NewCond(&sync.Mutex{})}
	p.activateErr = errors.New("activation failed")
	done := make(chan struct{})
	go func() {
		p.waitActive()
		close(done)
	}()
	<-done
}
