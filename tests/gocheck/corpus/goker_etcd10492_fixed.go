// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/etcd/10492 the fix of etcd-io/etcd PR 10492 (unlock before the callback); rewritten as package main
// what: Renew() reads the checkpointer under the lock and releases the lock before it calls
//   it, so Checkpoint() can take the lock

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
	cp := le.cp
	le.mu.Unlock()
	if cp != nil {
		cp(context.Background())
	}
}

func main() {
	le := &lessor{}
	le.SetCheckpointer(func(ctx context.Context) { le.Checkpoint() })
	le.Renew()
}
