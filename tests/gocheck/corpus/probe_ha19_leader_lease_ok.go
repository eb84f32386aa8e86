// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a lease-based leader election loop (acquire, renew, step down, retry with jitter)
// what: two candidates race for a lease; the holder renews a few times, does its leader work and
//   releases the lease, and the other retries on a timer or context cancellation until it has led once; main joins both.
package main

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

type Lease struct {
	mu      sync.Mutex
	holder  string
	expires int
	clock   int
}

func (l *Lease) TryAcquire(id string, ttl int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clock++
	if l.holder != "" && l.holder != id && l.clock < l.expires {
		return false
	}
	l.holder, l.expires = id, l.clock+ttl
	return true
}

func (l *Lease) Renew(id string, ttl int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clock++
	if l.holder != id {
		return false
	}
	l.expires = l.clock + ttl
	return true
}

func (l *Lease) Release(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder == id {
		l.holder = ""
	}
}

type Candidate struct {
	id     string
	lease  *Lease
	terms  int
	leader *atomic.Value
	log    *[]string
	logMu  *sync.Mutex
}

func (c *Candidate) Run(ctx context.Context, retry time.Duration) {
	for c.terms == 0 {
		if c.lease.TryAcquire(c.id, 1000) {
			c.leader.Store(c.id)
			for i := 0; i < 3 && c.lease.Renew(c.id, 1000); i++ {
				c.logMu.Lock()
				*c.log = append(*c.log, fmt.Sprintf("%s renew %d", c.id, i))
				c.logMu.Unlock()
			}
			c.terms++
			c.lease.Release(c.id)
			continue
		}
		t := time.NewTimer(retry)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lease := &Lease{}
	var leader atomic.Value
	var log []string
	var logMu sync.Mutex
	var wg sync.WaitGroup
	cands := []*Candidate{
		{id: "controller-0", lease: lease, leader: &leader, log: &log, logMu: &logMu},
		{id: "controller-1", lease: lease, leader: &leader, log: &log, logMu: &logMu},
	}
	for _, c := range cands {
		wg.Add(1)
		go func(c *Candidate) {
			defer wg.Done()
			c.Run(ctx, 200*time.Microsecond)
		}(c)
	}
	wg.Wait()
	sort.Strings(log)
	fmt.Println(len(log), "renewals; last leader:", leader.Load())
}
