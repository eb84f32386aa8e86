// want: partial-deadlock
// source: a hand-written singleflight (DoChan plus a context-aware Do), written for this set
// what: waiters get unbuffered result channels; a caller whose context expires stops
//   listening, and the leader goroutine blocks for ever delivering its result.

package dedup

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type Result struct {
	Val string
	Err error
}

type call struct{ chans []chan Result }

type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

func (g *Group) DoChan(key string, fn func() (string, error)) <-chan Result {
	ch := make(chan Result)
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*call{}
	}
	if c, ok := g.m[key]; ok {
		c.chans = append(c.chans, ch)
		g.mu.Unlock()
		return ch
	}
	c := &call{chans: []chan Result{ch}}
	g.m[key] = c
	g.mu.Unlock()
	go func() {
		v, err := fn()
		g.mu.Lock()
		delete(g.m, key)
		chans := c.chans
		g.mu.Unlock()
		for _, ch := range chans {
			ch <- Result{v, err}
		}
	}()
	return ch
}

func (g *Group) Do(ctx context.Context, key string, fn func() (string, error)) (string, error) {
	select {
	case r := <-g.DoChan(key, fn):
		return r.Val, r.Err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func TestDoShared(t *testing.T) {
	var g Group
	var calls atomic.Int32
	release := make(chan struct{})
	fn := func() (string, error) {
		calls.Add(1)
		<-release
		return "v", nil
	}
	chans := make([]<-chan Result, 3)
	for i := range chans {
		chans[i] = g.DoChan("k", fn)
	}
	close(release)
	for i, ch := range chans {
		if r := <-ch; r.Val != "v" || r.Err != nil {
			t.Errorf("caller %d got %+v", i, r)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("fn ran %d times, want 1", n)
	}
}

func TestDoCallerGivesUp(t *testing.T) {
	var g Group
	release := make(chan struct{})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
	defer cancel()
	_, err := g.Do(ctx, "slow", func() (string, error) {
		<-release
		return "late", nil
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Do = %v, want DeadlineExceeded", err)
	}
	close(release)
}
