// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/etcd/10492 (etcd-io/etcd PR 10492); rewritten as package main
// what: Renew() holds the lessor's RWMutex while it calls the checkpointer, which calls
//   Checkpoint(), which locks the same mutex again: main blocks on itself

package main

import (
	"context"
	"sync"
)

type Checkpointer func(ctx context.Context)

type lessor struct {
	mu sync.RWMutex
	cp Checkpointer
}

func (le *lessor) Checkpoint() {
	le.mu.Lock()
	defer le.mu.Unlock()
}

func (le *lessor) SetCheckpointer(cp Checkpointer) {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.cp = cp
}

func (le *lessor) Renew() {
	le.mu.Lock()
	unlock := func() { le.mu.Unlock() }
	defer func() { unlock() }()
	if le.cp != nil {
		le.cp(context.Background())
	}
}

func main() {
	le := &lessor{}
	le.SetCheckpointer(func(ctx context.Context) { le.Checkpoint() })
	le.Renew()
}
