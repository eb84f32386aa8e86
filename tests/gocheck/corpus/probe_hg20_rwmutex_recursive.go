// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on registries embedding sync.RWMutex whose read methods call other read methods
// what: Describe holds the read lock and calls Get, which RLocks again; if the writer's Lock
//   arrives between the two RLocks it blocks new readers, so Describe's nested RLock waits for
//   the writer, which waits for Describe's first RLock: reader, writer and main all stuck.

package main

import (
	"fmt"
	"runtime"
	"sync"
)

type Registry[K comparable, V any] struct {
	sync.RWMutex
	m map[K]V
}

func (r *Registry[K, V]) Get(k K) (V, bool) {
	r.RLock()
	defer r.RUnlock()
	v, ok := r.m[k]
	return v, ok
}

func (r *Registry[K, V]) Set(k K, v V) {
	r.Lock()
	defer r.Unlock()
	r.m[k] = v
}

func (r *Registry[K, V]) Describe(keys ...K) []string {
	r.RLock()
	defer r.RUnlock()
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		runtime.Gosched()
		if v, ok := r.Get(k); ok { // BUG: recursive read lock
			out = append(out, fmt.Sprint(k, "=", v))
		}
	}
	return out
}

func main() {
	reg := &Registry[string, int]{m: map[string]int{"a": 1, "b": 2}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		fmt.Println(reg.Describe("a", "b"))
	}()
	go func() {
		defer wg.Done()
		runtime.Gosched()
		reg.Set("c", 3)
	}()
	wg.Wait()
}
