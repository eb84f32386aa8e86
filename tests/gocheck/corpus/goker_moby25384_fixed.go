// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/moby/25384 the fix of moby/moby PR 25384 (Wait after the loop); rewritten as package main
// what: Wait() is called once after the loop has started a goroutine for each plugin

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
	}
	group.Wait()
}

func main() {
	pm := &Manager{plugins: []*plugin{{}, {}}}
	pm.init()
}
