// want: ok
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of probe_rl08_singleflight_dupchan: every DoChan caller, leader or
//   duplicate, gets a channel with room for its one result, so doCall never blocks on a caller
//   that returned on ctx.Done, whichever request arrives first

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Result holds the results of DoChan.
type Result struct {
	Val    string
	Err    error
	Shared bool
}

// call is an in-flight or completed Do or DoChan call.
type call struct {
	wg    sync.WaitGroup
	val   string
	err   error
	dups  int
	chans []chan<- Result
}

// Group suppresses duplicate calls for the same key.
type Group struct {
	mu sync.Mutex
	m  map[string]*call // key -> call in flight
}

// Do runs fn once for key at a time; duplicate callers wait for the first one's result.
func (g *Group) Do(key string, fn func() (string, error)) (string, error, bool) {
	g.mu.Lock()
	if c, ok := g.m[key]; ok {
		c.dups++
		g.mu.Unlock()
		c.wg.Wait()
		return c.val, c.err, true
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	g.doCall(c, key, fn)
	return c.val, c.err, c.dups > 0
}

// DoChan is like Do but returns a channel that will receive the result when it is ready.
func (g *Group) DoChan(key string, fn func() (string, error)) <-chan Result {
	g.mu.Lock()
	ch := make(chan Result, 1) // room for the result even if the caller stops listening
	if c, ok := g.m[key]; ok {
		c.dups++
		c.chans = append(c.chans, ch)
		g.mu.Unlock()
		return ch
	}
	c := &call{chans: []chan<- Result{ch}}
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	go g.doCall(c, key, fn)
	return ch
}

func (g *Group) doCall(c *call, key string, fn func() (string, error)) {
	c.val, c.err = fn()
	g.mu.Lock()
	defer g.mu.Unlock()
	c.wg.Done()
	if g.m[key] == c {
		delete(g.m, key)
	}
	for _, ch := range c.chans {
		ch <- Result{c.val, c.err, c.dups > 0}
	}
}

// profileServer answers profile requests from a slow backend.
type profileServer struct{ flight Group }

func loadProfile(user string) (string, error) {
	time.Sleep(5 * time.Millisecond) // backend round trip
	return "profile of " + user, nil
}

func (s *profileServer) handle(ctx context.Context, user string) (string, error) {
	ch := s.flight.DoChan("profile:"+user, func() (string, error) { return loadProfile(user) })
	select {
	case r := <-ch:
		return r.Val, r.Err
	case <-ctx.Done():
		return "", ctx.Err() // the client went away
	}
}

func main() {
	s := &profileServer{flight: Group{m: make(map[string]*call)}}
	if v, err, _ := s.flight.Do("config", func() (string, error) { return "v42", nil }); err == nil {
		fmt.Println("config", v)
	}
	gone, hangUp := context.WithCancel(context.Background())
	hangUp() // this client disconnected before its request was served
	var wg sync.WaitGroup
	for _, ctx := range []context.Context{gone, context.Background()} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := s.handle(ctx, "ana")
			fmt.Printf("%q %v\n", v, err)
		}()
	}
	wg.Wait()
}
