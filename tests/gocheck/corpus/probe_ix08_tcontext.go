// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: t.Context is cancelled just before Cleanup-registered functions run; a watcher goroutine exits on it and Cleanup waits for it

package watch

import (
	"sync"
	"testing"
)

func TestWatch(t *testing.T) {
	ctx := t.Context()
	var wg sync.WaitGroup
	events := make(chan int, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case e := <-events:
				_ = e
			}
		}
	}()
	t.Cleanup(wg.Wait)
	events <- 1
}
