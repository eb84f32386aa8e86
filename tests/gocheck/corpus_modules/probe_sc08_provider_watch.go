// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a traefik-style file provider under an errgroup: Provide starts its watcher (a method value)
//   that pushes five file events on an unbuffered channel without watching ctx; the aggregator
//   cancels after applying two configurations, Provide returns on ctx.Done(), g.Wait() returns and
//   the test ends with the watcher blocked for ever on its next send (a leak)

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
func (p *fileProvider) watch(events chan<- string) {
	for _, ev := range p.events {
		events <- ev // BUG: no case <-ctx.Done(): leaked once Provide has returned
	}
	close(events)
}

func (p *fileProvider) Provide(ctx context.Context, out chan<- Message) error {
	events := make(chan string)
	go p.watch(events)
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
