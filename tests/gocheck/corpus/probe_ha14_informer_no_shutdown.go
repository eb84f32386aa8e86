// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a client-go SharedInformerFactory that is started but never shut down
// what: the factory's informers run until its context is cancelled, but main processes the initial
//   list and returns without calling factory.Shutdown, leaving every informer loop blocked in its select.
package main

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

type Object struct {
	Kind, Name string
	Version    int
}

type Informer struct {
	kind    string
	events  chan Object
	mu      sync.Mutex
	store   map[string]int
	handled sync.WaitGroup
}

type Factory struct {
	ctx       context.Context
	cancel    context.CancelFunc
	informers map[string]*Informer
	wg        sync.WaitGroup
}

func NewFactory(parent context.Context) *Factory {
	ctx, cancel := context.WithCancel(parent)
	return &Factory{ctx: ctx, cancel: cancel, informers: make(map[string]*Informer)}
}

func (f *Factory) For(kind string) *Informer {
	inf, ok := f.informers[kind]
	if !ok {
		inf = &Informer{kind: kind, events: make(chan Object), store: make(map[string]int)}
		f.informers[kind] = inf
	}
	return inf
}

func (f *Factory) Start() {
	for _, inf := range f.informers {
		f.wg.Add(1)
		go func(inf *Informer) {
			defer f.wg.Done()
			inf.run(f.ctx)
		}(inf)
	}
}

// Shutdown stops the informers and waits for them.
func (f *Factory) Shutdown() {
	f.cancel()
	f.wg.Wait()
}

func (inf *Informer) run(ctx context.Context) {
	for {
		select {
		case obj := <-inf.events:
			inf.mu.Lock()
			if obj.Version >= inf.store[obj.Name] {
				inf.store[obj.Name] = obj.Version
			}
			inf.mu.Unlock()
			inf.handled.Done()
		case <-ctx.Done():
			return
		}
	}
}

func (inf *Informer) deliver(objs ...Object) {
	inf.handled.Add(len(objs))
	for _, o := range objs {
		inf.events <- o
	}
	inf.handled.Wait()
}

func main() {
	f := NewFactory(context.Background())
	pods := f.For("Pod")
	nodes := f.For("Node")
	f.Start()

	pods.deliver(Object{"Pod", "web-0", 3}, Object{"Pod", "web-1", 1}, Object{"Pod", "web-0", 4})
	nodes.deliver(Object{"Node", "worker-a", 9})

	names := make([]string, 0)
	for n, v := range pods.store {
		names = append(names, fmt.Sprintf("%s@%d", n, v))
	}
	sort.Strings(names)
	fmt.Println("pods:", names, "nodes:", len(nodes.store))
}
