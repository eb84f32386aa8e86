// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: runtime.NumGoroutine, Gosched, time.Since and log in a spinning-wait start barrier

package main

import (
	"log"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	start := time.Now()
	var ready atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ready.Add(1)
		}()
	}
	for ready.Load() < 3 {
		runtime.Gosched()
	}
	wg.Wait()
	log.Printf("%d goroutines after %v", runtime.NumGoroutine(), time.Since(start) > 0)
}
