// want: ok
// source: written for chanfuzz as a held-out probe of timers, context.AfterFunc and sync.OnceFunc (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: three goroutines and main call one sync.OnceFunc that closes a channel: closed once

package main

import "sync"

func main() {
	done := make(chan struct{})
	closeDone := sync.OnceFunc(func() { close(done) })
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			closeDone()
		}()
	}
	wg.Wait()
	<-done
	closeDone()
}
