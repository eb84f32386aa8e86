// want: ok
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_tk05_raft_shutdown_double_close (hashicorp/raft-style Shutdown): the
//   check of the flag, the flush and the close happen under one write lock, as raft's
//   shutdownLock has them, so only the first of the 10 callers closes shutdownCh

package raft

import (
	"sync"
	"testing"
	"time"
)

type logEntry struct {
	index uint64
	data  []byte
}

type Raft struct {
	mu         sync.RWMutex
	shutdown   bool
	shutdownCh chan struct{}
	applyCh    chan logEntry
	flushCh    chan chan error
	wg         sync.WaitGroup

	logMu   sync.Mutex
	log     []logEntry
	flushed int
}

func NewRaft() *Raft {
	return &Raft{
		shutdownCh: make(chan struct{}),
		applyCh:    make(chan logEntry),
		flushCh:    make(chan chan error),
	}
}

func (r *Raft) Start(replicators int) {
	r.wg.Add(1)
	go r.runLogStore()
	for i := 0; i < replicators; i++ {
		r.wg.Add(1)
		go r.replicate(i)
	}
}

// runLogStore appends entries and serves flush requests (grouped) until shutdown.
func (r *Raft) runLogStore() {
	defer r.wg.Done()
	for {
		select {
		case e := <-r.applyCh:
			r.logMu.Lock()
			r.log = append(r.log, e)
			r.logMu.Unlock()
		case reply := <-r.flushCh:
			// group commit: wait a moment for more flush requests, then sync once for all
			waiting := []chan error{reply}
			window := time.After(time.Millisecond)
		collect:
			for {
				select {
				case more := <-r.flushCh:
					waiting = append(waiting, more)
				case <-window:
					break collect
				}
			}
			r.logMu.Lock()
			r.flushed = len(r.log)
			r.logMu.Unlock()
			for _, w := range waiting {
				w <- nil
			}
		case <-r.shutdownCh:
			return
		}
	}
}

// replicate stands for a follower's replication goroutine: it waits for shutdown.
func (r *Raft) replicate(peer int) {
	defer r.wg.Done()
	<-r.shutdownCh
}

func (r *Raft) Apply(data []byte, index uint64) bool {
	select {
	case r.applyCh <- logEntry{index: index, data: data}:
		return true
	case <-r.shutdownCh:
		return false
	}
}

func (r *Raft) flush() error {
	reply := make(chan error, 1)
	select {
	case r.flushCh <- reply:
		return <-reply
	case <-r.shutdownCh:
		return nil
	}
}

// Shutdown must be safe to call from many goroutines at once.
func (r *Raft) Shutdown() {
	r.mu.Lock()
	if r.shutdown {
		r.mu.Unlock()
		return
	}
	_ = r.flush()
	close(r.shutdownCh)
	r.shutdown = true
	r.mu.Unlock()
	r.wg.Wait()
}

func TestRaftConcurrentShutdown(t *testing.T) {
	r := NewRaft()
	r.Start(3)
	for i := 0; i < 20; i++ {
		if !r.Apply([]byte("x"), uint64(i+1)) {
			t.Fatalf("apply %d refused", i)
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Shutdown()
		}()
	}
	wg.Wait()
	if r.Apply([]byte("y"), 21) {
		t.Error("apply accepted after shutdown")
	}
}
