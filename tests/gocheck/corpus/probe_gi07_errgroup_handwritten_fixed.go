// want: ok
// source: hand-written errgroup replacement, fixed
// what: a WaitGroup tracks the fetchers and the first error is kept under a sync.Once; fetchAll
//   waits for every fetcher before returning, so none can be left behind.
package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

type group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() { g.err = err })
		}
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	return g.err
}

func fetch(url string) error {
	time.Sleep(time.Duration(len(url)) * 100 * time.Microsecond)
	if url == "http://bad" {
		return errors.New("fetch " + url + ": connection refused")
	}
	return nil
}

func main() {
	urls := []string{"http://bad", "http://example.com/a", "http://example.com/bb", "http://example.org/ccc"}
	var g group
	for _, u := range urls {
		g.Go(func() error { return fetch(u) })
	}
	if err := g.Wait(); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println("shutting down")
}
