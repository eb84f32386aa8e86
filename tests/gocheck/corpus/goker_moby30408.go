// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/30408 (moby/moby PR 30408); rewritten as package main
// what: waitActive() waits on a sync.Cond until the plugin is activated; activation failed (an
//   error is set) and nobody signals, so the waiter and main, waiting for it, block for ever

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
	for !p.activated {
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
