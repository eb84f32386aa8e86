// want: ok
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Two workers call a sync.OnceValue loader that panics on a bad line; OnceValue re-panics on every call, and
//   each worker's deferred recover reports into errc, which has room for every worker, so nothing blocks or closes twice.

package main

import (
	"fmt"
	"strings"
	"sync"
)

var loadConfig = sync.OnceValue(func() map[string]string {
	cfg := map[string]string{}
	for _, line := range []string{"addr=:80", "workers"} {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			panic("config: bad line " + line)
		}
		cfg[k] = v
	}
	return cfg
})

func worker(id int, errc chan<- error, wg *sync.WaitGroup) {
	defer wg.Done()
	defer func() {
		if r := recover(); r != nil {
			errc <- fmt.Errorf("worker %d: %v", id, r)
		}
	}()
	cfg := loadConfig()
	fmt.Println(id, cfg["addr"])
}

func main() {
	const n = 2
	errc := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go worker(i, errc, &wg)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		fmt.Println(err)
	}
}
