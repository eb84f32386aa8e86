// want: global-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (grpc/etcd-style) bump() notifies a waiter with a non-blocking send (select with
//   default) on an unbuffered channel; if the waiter is not yet receiving, the notification is
//   dropped, the waiter blocks for ever and main blocks on done (interleaving-dependent)

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
		<-v.notify
		v.mu.Lock()
		fmt.Println("version", v.version)
		v.mu.Unlock()
	}()
	v.bump()
	<-done
}
