// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 9.7, memo5 (a monitor goroutine serving requests, call and deliver goroutines per entry)
// what: the server goroutine owns the cache and ranges over the requests channel; on a miss it
//   starts entry.call (which closes ready), and for every request starts entry.deliver, which
//   waits on ready and answers on the request's unbuffered response channel. Ten clients request
//   five keys; main calls Close, which closes requests and ends the server.

package main

import (
	"fmt"
	"sync"
	"time"
)

type Func func(key string) (interface{}, error)

type result struct {
	value interface{}
	err   error
}

type entry struct {
	res   result
	ready chan struct{} // closed when res is ready
}

// A request is a message requesting that the Func be applied to key.
type request struct {
	key      string
	response chan<- result // the client wants a single result
}

type Memo struct{ requests chan request }

// New returns a memoization of f.  Clients must subsequently call Close.
func New(f Func) *Memo {
	memo := &Memo{requests: make(chan request)}
	go memo.server(f)
	return memo
}

func (memo *Memo) Get(key string) (interface{}, error) {
	response := make(chan result)
	memo.requests <- request{key, response}
	res := <-response
	return res.value, res.err
}

func (memo *Memo) Close() { close(memo.requests) }

func (memo *Memo) server(f Func) {
	cache := make(map[string]*entry)
	for req := range memo.requests {
		e := cache[req.key]
		if e == nil {
			// This is the first request for this key.
			e = &entry{ready: make(chan struct{})}
			cache[req.key] = e
			go e.call(f, req.key) // call f(key)
		}
		go e.deliver(req.response)
	}
}

func (e *entry) call(f Func, key string) {
	// Evaluate the function.
	e.res.value, e.res.err = f(key)
	// Broadcast the ready condition.
	close(e.ready)
}

func (e *entry) deliver(response chan<- result) {
	// Wait for the ready condition.
	<-e.ready
	// Send the result to the client.
	response <- e.res
}

func slowSquare(key string) (interface{}, error) {
	time.Sleep(500 * time.Microsecond)
	if key == "" {
		return nil, fmt.Errorf("empty key")
	}
	return len(key) * len(key), nil
}

func main() {
	m := New(slowSquare)
	keys := []string{"a", "bb", "ccc", "", "dddd"}
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func(key string) {
			defer wg.Done()
			v, err := m.Get(key)
			fmt.Printf("%q -> %v %v\n", key, v, err)
		}(keys[i%len(keys)])
	}
	wg.Wait()
	m.Close()
}
