// want: global-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on generic SafeMap[K, V] types embedding sync.Mutex (copylocks bug)
// what: Len has a value receiver, so it copies the embedded mutex; if the copy is taken while the
//   writer goroutine holds the lock, the copy is locked for good and Len's Lock never returns,
//   leaving main blocked after the writer has finished.

package main

import (
	"fmt"
	"runtime"
	"sync"
)

type SafeMap[K comparable, V any] struct {
	sync.Mutex
	m map[K]V
}

func (s *SafeMap[K, V]) Put(k K, v V) {
	s.Lock()
	defer s.Unlock()
	runtime.Gosched()
	s.m[k] = v
}

// BUG: value receiver copies the embedded Mutex, possibly in the locked state.
func (s SafeMap[K, V]) Len() int {
	s.Lock()
	defer s.Unlock()
	return len(s.m)
}

func main() {
	sm := &SafeMap[string, int]{m: make(map[string]int)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i, k := range []string{"a", "b", "c"} {
			sm.Put(k, i)
		}
	}()
	for range 3 {
		fmt.Println("size", sm.Len())
		runtime.Gosched()
	}
	<-done
}
