// want: ok
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_sc09_resolver_close (a grpc-go-style ClientConn): the resolver sends in a
//   select with its ctx, and Close stops and waits for the resolver before it closes updateCh,
//   so no send can follow the close and a resolver blocked on its send is released

package main

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"
)

type state struct {
	addrs   []string
	version int
}

type dnsResolver struct {
	ctx        context.Context
	cancel     context.CancelFunc
	resolveNow chan struct{}
	cc         *clientConn
	wg         sync.WaitGroup
}

// watcher is started as a method value.
func (r *dnsResolver) watcher() {
	defer r.wg.Done()
	for v := 1; ; v++ {
		select {
		case <-r.ctx.Done():
			return
		case <-r.resolveNow:
		case <-time.After(time.Millisecond):
		}
		addrs := []string{"10.0.0.3:443", "10.0.0.1:443", fmt.Sprintf("10.0.1.%d:443", v)}
		sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
		select {
		case r.cc.updateCh <- state{addrs: addrs, version: v}:
		case <-r.ctx.Done():
			return
		}
	}
}

type clientConn struct {
	ctx       context.Context
	cancel    context.CancelFunc
	updateCh  chan state
	ready     chan struct{}
	closeOnce sync.Once
	resolver  *dnsResolver
	balWG     sync.WaitGroup
}

func (cc *clientConn) balancer() {
	defer cc.balWG.Done()
	for {
		select {
		case <-cc.ctx.Done():
			return
		case s := <-cc.updateCh:
			if s.version == 3 {
				close(cc.ready)
			}
			select { // a subconn failed: ask for a re-resolution, without blocking
			case cc.resolver.resolveNow <- struct{}{}:
			default:
			}
		}
	}
}

func (cc *clientConn) Close() {
	cc.closeOnce.Do(func() {
		cc.resolver.cancel()
		cc.resolver.wg.Wait()
		cc.cancel()
		cc.balWG.Wait()
		close(cc.updateCh)
	})
}

func dial(parent context.Context) *clientConn {
	cc := &clientConn{updateCh: make(chan state), ready: make(chan struct{})}
	cc.ctx, cc.cancel = context.WithCancel(parent)
	r := &dnsResolver{resolveNow: make(chan struct{}, 1), cc: cc}
	r.ctx, r.cancel = context.WithCancel(parent)
	cc.resolver = r
	cc.balWG.Add(1)
	go cc.balancer()
	r.wg.Add(1)
	go r.watcher()
	return cc
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cc := dial(ctx)
	select {
	case <-cc.ready:
		fmt.Println("connection ready")
	case <-time.After(time.Second):
		fmt.Println("timed out waiting for the resolver")
	}
	cc.Close()
	cc.Close() // idempotent
}
