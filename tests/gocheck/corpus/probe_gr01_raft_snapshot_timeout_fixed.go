// want: ok
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on hashicorp/raft user-snapshot / consul snapshot RPC with timeout
// what: fixed as upstream does: resCh has a buffer of one, so the snapshot goroutine can
//
//	always deliver its result and exit even after takeSnapshot returned on timeout;
//	no goroutine is left blocked.
package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

type SnapshotMeta struct {
	Index uint64
	Term  uint64
	Size  int
}

type FSM interface {
	Snapshot() (*SnapshotMeta, error)
}

type kvFSM struct {
	data  map[string]string
	index uint64
	delay time.Duration
}

func (f *kvFSM) Snapshot() (*SnapshotMeta, error) {
	time.Sleep(f.delay) // persisting the state is slow
	size := 0
	for k, v := range f.data {
		size += len(k) + len(v)
	}
	return &SnapshotMeta{Index: f.index, Term: 3, Size: size}, nil
}

type Raft struct {
	fsm          FSM
	lastSnapshot *SnapshotMeta
}

func NewRaft(fsm FSM) *Raft { return &Raft{fsm: fsm} }

type snapResult struct {
	meta *SnapshotMeta
	err  error
}

func (r *Raft) takeSnapshot(ctx context.Context) (*SnapshotMeta, error) {
	resCh := make(chan snapResult, 1) // buffered: the sender never waits
	go func() {
		meta, err := r.fsm.Snapshot()
		resCh <- snapResult{meta, err}
	}()
	select {
	case res := <-resCh:
		if res.err != nil {
			return nil, res.err
		}
		r.lastSnapshot = res.meta
		return res.meta, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("snapshot: %w", ctx.Err())
	}
}

func main() {
	fsm := &kvFSM{data: map[string]string{"a": "1", "b": "2"}, index: 42, delay: 3 * time.Millisecond}
	r := NewRaft(fsm)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	meta, err := r.takeSnapshot(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		fmt.Println("snapshot timed out, will retry later")
	} else if err == nil {
		fmt.Println("snapshot at index", meta.Index)
	}
	time.Sleep(6 * time.Millisecond) // other leader duties
}
