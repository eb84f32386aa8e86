// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Prometheus-like service discovery manager tearing down providers after a config error
// what: a provider's stop channel is created only in Start; when config validation fails part-way,
//   the cleanup path calls Stop on every provider, including one that was never started: close of nil channel.
package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

type Provider struct {
	name    string
	targets []string
	stopCh  chan struct{}
	done    chan struct{}
	updates chan []string
}

func (p *Provider) Start(wg *sync.WaitGroup) {
	p.stopCh = make(chan struct{})
	p.done = make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(p.done)
		select {
		case p.updates <- p.targets:
		case <-p.stopCh:
		}
		<-p.stopCh
	}()
}

func (p *Provider) Stop() {
	close(p.stopCh)
	if p.done != nil {
		<-p.done
	}
}

type SDConfig struct {
	Name string
	URL  string
}

var ErrBadURL = errors.New("sd config: unsupported URL scheme")

func validate(c SDConfig) error {
	if !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "file://") {
		return fmt.Errorf("%s: %w", c.Name, ErrBadURL)
	}
	return nil
}

type Manager struct {
	providers []*Provider
	updates   chan []string
	wg        sync.WaitGroup
}

func (m *Manager) ApplyConfig(cfgs []SDConfig) error {
	for _, c := range cfgs {
		p := &Provider{name: c.Name, targets: []string{c.URL}, updates: m.updates}
		m.providers = append(m.providers, p)
		if err := validate(c); err != nil {
			return err
		}
		p.Start(&m.wg)
	}
	return nil
}

func (m *Manager) Shutdown() {
	for _, p := range m.providers {
		p.Stop()
	}
	m.wg.Wait()
}

func main() {
	m := &Manager{updates: make(chan []string, 4)}
	err := m.ApplyConfig([]SDConfig{
		{Name: "file_sd", URL: "file:///etc/prometheus/targets.json"},
		{Name: "consul", URL: "consul://10.0.0.9:8500"},
		{Name: "http_sd", URL: "http://sd.internal/targets"},
	})
	if err != nil {
		fmt.Println("config error:", err)
		m.Shutdown()
		return
	}
	fmt.Println("running", len(m.providers), "providers")
	m.Shutdown()
}
