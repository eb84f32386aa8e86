// want: global-deadlock
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: modelled on consul's agent local state and its anti-entropy syncer (kernel invented):
//   AddService holds the state lock while it sends on the unbuffered trigger channel; the syncer,
//   woken by the previous trigger, is blocked taking that lock in SyncChanges, so the register
//   loop (30 services) and the syncer wait on each other (a lock/channel cycle; at GOMAXPROCS 1
//   on the second service, otherwise interleaving-dependent)

package local

import (
	"fmt"
	"sync"
	"testing"
)

type serviceState struct {
	id     string
	port   int
	inSync bool
}

type State struct {
	mu        sync.Mutex
	services  map[string]*serviceState
	synced    int
	triggerCh chan struct{}
}

func NewState() *State {
	return &State{services: map[string]*serviceState{}, triggerCh: make(chan struct{})}
}

func (l *State) AddService(id string, port int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.services[id] = &serviceState{id: id, port: port}
	// BUG: a blocking send with the lock held; the syncer needs the lock to come back here.
	l.triggerCh <- struct{}{}
}

// SyncChanges pushes every service not yet in sync to the catalog.
func (l *State) SyncChanges() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.services {
		if !s.inSync {
			s.inSync = true
			l.synced++
		}
	}
}

func (l *State) Synced() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.synced
}

type StateSyncer struct {
	state      *State
	shutdownCh chan struct{}
	done       chan struct{}
}

func NewStateSyncer(state *State) *StateSyncer {
	return &StateSyncer{state: state, shutdownCh: make(chan struct{}), done: make(chan struct{})}
}

func (s *StateSyncer) Start() { go s.run() }

func (s *StateSyncer) run() {
	defer close(s.done)
	for {
		select {
		case <-s.state.triggerCh:
			s.state.SyncChanges()
		case <-s.shutdownCh:
			return
		}
	}
}

func (s *StateSyncer) Stop() {
	close(s.shutdownCh)
	<-s.done
}

func TestAgentRegisterServices(t *testing.T) {
	state := NewState()
	syncer := NewStateSyncer(state)
	syncer.Start()
	for i := 0; i < 30; i++ {
		state.AddService(fmt.Sprintf("web-%d", i), 8080+i)
	}
	syncer.Stop()
	state.SyncChanges()
	if n := state.Synced(); n != 30 {
		t.Errorf("synced %d services, want 30", n)
	}
}
