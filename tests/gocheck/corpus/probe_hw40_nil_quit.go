// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a connection manager whose constructor forgets to make one channel
// what: New() builds the struct literal without quit; the reaper goroutine selects on the nil
//   quit (never ready) and on its ticker, and Close() does close(m.quit): close of nil channel
package main

import (
	"fmt"
	"sync"
	"time"
)

type Manager struct {
	mu    sync.Mutex
	conns map[string]bool
	quit  chan struct{}
	wg    sync.WaitGroup
}

func New() *Manager {
	m := &Manager{conns: map[string]bool{}} // BUG: quit not made
	m.wg.Add(1)
	go m.reap()
	return m
}

func (m *Manager) reap() {
	defer m.wg.Done()
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			m.mu.Lock()
			for k, idle := range m.conns {
				if idle {
					delete(m.conns, k)
				}
			}
			m.mu.Unlock()
		case <-m.quit:
			return
		}
	}
}

func (m *Manager) Close() {
	close(m.quit)
	m.wg.Wait()
}

func main() {
	m := New()
	m.mu.Lock()
	m.conns["a"] = true
	m.mu.Unlock()
	fmt.Println("closing")
	m.Close()
}
