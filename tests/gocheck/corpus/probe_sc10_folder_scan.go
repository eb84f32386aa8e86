// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a syncthing-style folder service: the fs watcher loop turns events into Scan calls, and
//   Scan sends its request to the folder's Serve loop and waits for the reply without watching
//   ctx; when the test cancels, Serve returns, and a watcher caught in (or about to start) a Scan
//   blocks for ever after the test ends (interleaving-dependent: it may see ctx.Done first)

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
func (f *folder) Scan(sub string) error {
	req := scanRequest{subdir: sub, err: make(chan error, 1)}
	f.scanNow <- req // BUG: blocks for ever once Serve has returned
	return <-req.err
}

func (f *folder) watchLoop(ctx context.Context, events <-chan string) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			f.Scan(ev)
		}
	}
}

func TestScanOnFsEvents(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := newFolder("default")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.Serve(ctx)
	}()
	events := make(chan string, 8)
	go f.watchLoop(ctx, events)
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
