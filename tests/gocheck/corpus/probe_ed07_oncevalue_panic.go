// want: channel-safety
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Two workers call a sync.OnceValue loader that panics on a bad line and recover it by closing failed,
//   assuming the loader can fail only once; OnceValue re-panics on every call, so the second close panics.

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

func worker(id int, failed chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	defer func() {
		if r := recover(); r != nil {
			close(failed) // the config loads once, so only one worker can see it fail
		}
	}()
	cfg := loadConfig()
	fmt.Println(id, cfg["addr"])
}

func main() {
	failed := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go worker(i, failed, &wg)
	}
	wg.Wait()
	select {
	case <-failed:
		fmt.Println("config failed")
	default:
	}
}
