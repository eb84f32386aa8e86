// want: ok
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_sc08_provider_watch (a traefik-style file provider under an errgroup): the
//   watcher gets Provide's ctx and selects on ctx.Done() with each send, and Provide waits for it
//   (a WaitGroup) before returning, so nothing is left when g.Wait() returns

package provider

import (
	"context"
	"sort"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"
)

type Message struct {
	ProviderName string
	Version      int
	Files        []string
}

type fileProvider struct {
	name   string
	events []string // what the fs watcher would report
}

// watch is started as a method value by Provide.
func (p *fileProvider) watch(ctx context.Context, events chan<- string, wg *sync.WaitGroup) {
	defer wg.Done()
	defer close(events)
	for _, ev := range p.events {
		select {
		case events <- ev:
		case <-ctx.Done():
			return
		}
	}
}

func (p *fileProvider) Provide(ctx context.Context, out chan<- Message) error {
	events := make(chan string)
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go p.watch(ctx, events, &wg)
	var files []string
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			files = append(files, ev)
			sort.Slice(files, func(i, j int) bool { return files[i] < files[j] })
			msg := Message{ProviderName: p.name, Version: len(files), Files: append([]string(nil), files...)}
			select {
			case out <- msg:
			case <-ctx.Done():
				return nil
			}
		}
	}
}

type aggregator struct {
	mu      sync.RWMutex
	configs map[string]Message
}

func (a *aggregator) listen(ctx context.Context, in <-chan Message, want int, cancel context.CancelFunc) error {
	applied := 0
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-in:
			a.mu.Lock()
			a.configs[m.ProviderName] = m
			a.mu.Unlock()
			if applied++; applied == want {
				cancel() // enough reloads seen: shut the providers down
			}
		}
	}
}

func TestFileProviderReload(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	msgs := make(chan Message)
	p := &fileProvider{name: "file", events: []string{"a.toml", "b.toml", "c.toml", "d.toml", "e.toml"}}
	a := &aggregator{configs: map[string]Message{}}
	g.Go(func() error { return p.Provide(gctx, msgs) })
	g.Go(func() error { return a.listen(gctx, msgs, 2, cancel) })
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	a.mu.RLock()
	defer a.mu.RUnlock()
	if v := a.configs["file"].Version; v < 2 {
		t.Fatalf("applied version %d, want at least 2", v)
	}
}
