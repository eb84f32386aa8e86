// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/25384 (moby/moby PR 25384); rewritten as package main
// what: the WaitGroup is set to the number of plugins (2) but Wait() is called inside the loop,
//   after the first goroutine only: one Done() never reaches two, and main waits for ever

package main

import "sync"

type plugin struct{}

type Manager struct {
	plugins []*plugin
}

func (pm *Manager) init() {
	var group sync.WaitGroup
	group.Add(len(pm.plugins))
	for _, p := range pm.plugins {
		go func(p *plugin) {
			defer group.Done()
		}(p)
		group.Wait()
	}
}

func main() {
	pm := &Manager{plugins: []*plugin{{}, {}}}
	pm.init()
}
