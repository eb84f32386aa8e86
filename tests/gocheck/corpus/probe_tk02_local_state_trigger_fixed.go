// want: ok
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_tk02_local_state_trigger (consul-style local state): the trigger
//   channel has a buffer of one and AddService sends without blocking (a pending trigger already
//   covers the new service), as consul's TriggerSyncChanges does, so nothing waits with the lock held

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
	return &State{services: map[string]*serviceState{}, triggerCh: make(chan struct{}, 1)}
}

func (l *State) AddService(id string, port int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.services[id] = &serviceState{id: id, port: port}
	select {
	case l.triggerCh <- struct{}{}:
	default: // a sync is already pending
	}
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
