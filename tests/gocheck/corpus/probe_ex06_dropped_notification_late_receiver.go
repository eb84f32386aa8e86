// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: variant of hb19 (diagnostic): the waiter takes and releases a mutex before receiving
//   the notification, so it is not already waiting when it is spawned; bump() notifies with a
//   select-default on an unbuffered channel and the wakeup can be dropped

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
	default: // BUG: drops the wakeup when nobody is receiving yet
	}
}

func main() {
	v := &versioned{notify: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		v.mu.Lock()
		start := v.version
		v.mu.Unlock()
		<-v.notify
		fmt.Println("changed since", start)
	}()
	v.bump()
	<-done
}
