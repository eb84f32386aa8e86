// want: ok
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_sc10_folder_scan (a syncthing-style folder service): Scan takes ctx and
//   selects on ctx.Done() both for its request and for the reply, and the cleanup waits for the
//   watcher loop too, so after cancel every goroutine returns before the test ends

package folder

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type scanRequest struct {
	subdir string
	err    chan error
}

type folder struct {
	id      string
	scanNow chan scanRequest
	scanned chan string // progress notifications, dropped when nobody listens
	scans   atomic.Int64
}

func newFolder(id string) *folder {
	return &folder{id: id, scanNow: make(chan scanRequest), scanned: make(chan string, 8)}
}

func (f *folder) scanSubdir(sub string) error {
	f.scans.Add(1)
	select {
	case f.scanned <- strings.TrimPrefix(sub, "/"):
	default:
	}
	return nil
}

func (f *folder) Serve(ctx context.Context) {
	t := time.NewTicker(time.Hour) // full rescan interval
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f.scanSubdir("")
		case req := <-f.scanNow:
			req.err <- f.scanSubdir(req.subdir)
		}
	}
}

// Scan asks Serve for a scan of one subdirectory and waits for the result.
func (f *folder) Scan(ctx context.Context, sub string) error {
	req := scanRequest{subdir: sub, err: make(chan error, 1)}
	select {
	case f.scanNow <- req:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-req.err:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *folder) watchLoop(ctx context.Context, events <-chan string) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			f.Scan(ctx, ev)
		}
	}
}

func TestScanOnFsEvents(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := newFolder("default")
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		f.Serve(ctx)
	}()
	events := make(chan string, 8)
	go func() {
		defer wg.Done()
		f.watchLoop(ctx, events)
	}()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})

	events <- "/photos"
	events <- "/docs"
	for i := 0; i < 2; i++ {
		<-f.scanned
	}
	if n := f.scans.Load(); n < 2 {
		t.Fatalf("%d scans, want at least 2", n)
	}
	events <- "/music" // more changes arrive while the test shuts the folder down
	events <- "/notes"
}
