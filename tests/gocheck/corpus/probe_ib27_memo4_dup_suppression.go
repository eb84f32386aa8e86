// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 9.7, memo4 (concurrent non-blocking cache with duplicate suppression: a mutex and a ready channel per entry)
// what: Get locks the cache; on a miss it inserts an entry with a ready channel, unlocks, calls
//   the slow function and closes ready; a concurrent Get for the same key unlocks and waits on
//   <-e.ready. Twelve goroutines request six URLs (each twice) through a fake httpGetBody.

package main

import (
	"fmt"
	"sync"
	"time"
)

// Func is the type of the function to memoize.
type Func func(string) (interface{}, error)

type result struct {
	value interface{}
	err   error
}

type entry struct {
	res   result
	ready chan struct{} // closed when res is ready
}

func New(f Func) *Memo {
	return &Memo{f: f, cache: make(map[string]*entry)}
}

type Memo struct {
	f     Func
	mu    sync.Mutex // guards cache
	cache map[string]*entry
}

func (memo *Memo) Get(key string) (value interface{}, err error) {
	memo.mu.Lock()
	e := memo.cache[key]
	if e == nil {
		// This is the first request for this key.
		// This goroutine becomes responsible for computing
		// the value and broadcasting the ready condition.
		e = &entry{ready: make(chan struct{})}
		memo.cache[key] = e
		memo.mu.Unlock()

		e.res.value, e.res.err = memo.f(key)

		close(e.ready) // broadcast ready condition
	} else {
		// This is a repeat request for this key.
		memo.mu.Unlock()

		<-e.ready // wait for ready condition
	}
	return e.res.value, e.res.err
}

var pages = map[string]string{
	"https://golang.org":      "The Go Programming Language",
	"https://godoc.org":       "GoDoc",
	"https://play.golang.org": "The Go Playground",
	"http://gopl.io":          "The Go Programming Language (book)",
}

func httpGetBody(url string) (interface{}, error) {
	time.Sleep(time.Millisecond)
	body, ok := pages[url]
	if !ok {
		return nil, fmt.Errorf("%s: 404 Not Found", url)
	}
	return []byte(body), nil
}

func main() {
	m := New(httpGetBody)
	urls := []string{"https://golang.org", "https://godoc.org", "https://play.golang.org",
		"http://gopl.io", "http://example.invalid", "https://golang.org/doc"}
	var n sync.WaitGroup
	for _, url := range append(urls, urls...) {
		n.Add(1)
		go func(url string) {
			defer n.Done()
			start := time.Now()
			value, err := m.Get(url)
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Printf("%s, %s, %d bytes\n", url, time.Since(start).Round(time.Millisecond), len(value.([]byte)))
		}(url)
	}
	n.Wait()
}
