// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: modelled on prometheus's discovery manager (kernel invented, no one issue): ApplyConfig
//   restarts every provider with a fresh context.WithCancel and stores the new cancel func over
//   the old one without calling it, so each replaced updater and discoverer stays blocked in its
//   select for ever (8 providers, 3 reloads: 16 updaters and 16 discoverers leak)

package discovery

import (
	"context"
	"sync"
	"testing"
)

type targetGroup struct {
	source  string
	targets []string
}

// provider is one service-discovery mechanism and the channel it reports on.
type provider struct {
	name    string
	updates chan []targetGroup
}

// discoverer sends the provider's initial target groups, then waits until it is stopped.
func (p *provider) discoverer(ctx context.Context, generation int) {
	tgs := []targetGroup{{source: p.name, targets: []string{"10.0.0.1:9100", "10.0.0.2:9100"}}}
	if generation > 0 {
		tgs[0].targets = append(tgs[0].targets, "10.0.0.3:9100")
	}
	select {
	case p.updates <- tgs:
	case <-ctx.Done():
		return
	}
	<-ctx.Done()
}

type Manager struct {
	mtx         sync.Mutex
	cancels     map[string]context.CancelFunc
	providers   map[string]*provider
	targets     map[string][]targetGroup
	generation  int
	triggerSend chan struct{}
}

func NewManager() *Manager {
	return &Manager{
		cancels:     map[string]context.CancelFunc{},
		providers:   map[string]*provider{},
		targets:     map[string][]targetGroup{},
		triggerSend: make(chan struct{}, 1),
	}
}

// updater copies a provider's updates into the manager until the context is cancelled.
func (m *Manager) updater(ctx context.Context, p *provider) {
	for {
		select {
		case <-ctx.Done():
			return
		case tgs, ok := <-p.updates:
			if !ok {
				return
			}
			m.mtx.Lock()
			m.targets[p.name] = tgs
			m.mtx.Unlock()
			select {
			case m.triggerSend <- struct{}{}:
			default:
			}
		}
	}
}

// ApplyConfig (re)starts one provider for each name.
func (m *Manager) ApplyConfig(names []string) {
	m.mtx.Lock()
	defer m.mtx.Unlock()
	for _, name := range names {
		p := &provider{name: name, updates: make(chan []targetGroup)}
		ctx, cancel := context.WithCancel(context.Background())
		// BUG: the previous provider's cancel func is dropped here, never called.
		m.cancels[name] = cancel
		m.providers[name] = p
		go m.updater(ctx, p)
		go p.discoverer(ctx, m.generation)
	}
	m.generation++
}

func (m *Manager) Stop() {
	m.mtx.Lock()
	defer m.mtx.Unlock()
	for _, cancel := range m.cancels {
		cancel()
	}
}

func (m *Manager) TargetGroups() int {
	m.mtx.Lock()
	defer m.mtx.Unlock()
	n := 0
	for _, tgs := range m.targets {
		n += len(tgs)
	}
	return n
}

func TestDiscoveryReload(t *testing.T) {
	names := []string{"kubernetes", "consul", "file", "dns", "ec2", "gce", "azure", "static"}
	m := NewManager()
	for round := 0; round < 3; round++ {
		m.ApplyConfig(names)
		<-m.triggerSend // at least one provider has reported
	}
	if n := m.TargetGroups(); n > len(names) {
		t.Errorf("%d target groups for %d providers", n, len(names))
	}
	m.Stop()
}
