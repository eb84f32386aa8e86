// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: bounded parallelism after the pipelines post: a walker, two digesters and a closer; the consumer
//   returns on the first error without closing done, so digesters, walker and closer can stay blocked.

package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

type result struct {
	path string
	sum  int
	err  error
}

func walk(done <-chan struct{}, files []string) (<-chan string, <-chan error) {
	paths := make(chan string)
	errc := make(chan error, 1)
	go func() {
		defer close(paths)
		for _, f := range files {
			select {
			case paths <- f:
			case <-done:
				errc <- errors.New("walk canceled")
				return
			}
		}
		errc <- nil
	}()
	return paths, errc
}

func digester(done <-chan struct{}, paths <-chan string, c chan<- result) {
	for p := range paths {
		r := result{path: p, sum: len(p) * 7}
		if strings.HasPrefix(p, "bad") {
			r.err = fmt.Errorf("read %s: permission denied", p)
		}
		select {
		case c <- r:
		case <-done:
			return
		}
	}
}

func digestAll(files []string) (map[string]int, error) {
	done := make(chan struct{}) // BUG: never closed (missing defer close(done))
	paths, errc := walk(done, files)
	c := make(chan result)
	var wg sync.WaitGroup
	const numDigesters = 2
	wg.Add(numDigesters)
	for i := 0; i < numDigesters; i++ {
		go func() {
			digester(done, paths, c)
			wg.Done()
		}()
	}
	go func() {
		wg.Wait()
		close(c)
	}()
	m := make(map[string]int)
	for r := range c {
		if r.err != nil {
			return nil, r.err
		}
		m[r.path] = r.sum
	}
	if err := <-errc; err != nil {
		return nil, err
	}
	return m, nil
}

func main() {
	m, err := digestAll([]string{"a.txt", "bad.txt", "c.txt", "d.txt"})
	fmt.Println(len(m), err)
}
