// want: ok
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_tk01_sd_reload_cancel (prometheus-style discovery manager): ApplyConfig
//   cancels the provider it replaces before storing the new cancel func, and Stop cancels the
//   rest and waits for every updater and discoverer, so none is left blocked

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
	wg          sync.WaitGroup
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
		if old, ok := m.cancels[name]; ok {
			old() // stop the provider this one replaces
		}
		m.cancels[name] = cancel
		m.providers[name] = p
		m.wg.Add(2)
		go func() {
			defer m.wg.Done()
			m.updater(ctx, p)
		}()
		go func(generation int) {
			defer m.wg.Done()
			p.discoverer(ctx, generation)
		}(m.generation)
	}
	m.generation++
}

func (m *Manager) Stop() {
	m.mtx.Lock()
	for _, cancel := range m.cancels {
		cancel()
	}
	m.mtx.Unlock()
	m.wg.Wait() // an updater may be waiting for mtx: release it first
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
