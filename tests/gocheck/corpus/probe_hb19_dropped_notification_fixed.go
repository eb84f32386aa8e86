// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb19: notify has capacity 1, so a wakeup sent before the waiter
//   arrives is kept (coalescing notification)

package main

import (
	"fmt"
	"sync"
)

type versioned struct {
	mu      sync.Mutex
	version int
	notify  chan struct{}
}

func (v *versioned) bump() {
	v.mu.Lock()
	v.version++
	v.mu.Unlock()
	select {
	case v.notify <- struct{}{}:
	default:
	}
}

func main() {
	v := &versioned{notify: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-v.notify
		v.mu.Lock()
		fmt.Println("version", v.version)
		v.mu.Unlock()
	}()
	v.bump()
	<-done
}
