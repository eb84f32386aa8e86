// want: ok
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of the chunked uploader: when TryGo finds the group saturated the chunk is
//   queued with g.Go, which waits for a free slot and is tracked by the group, so Wait returns only
//   after every upload has reported and closing the progress channel afterwards is safe.

package uploader

import (
	"context"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

// uploadChunk pretends to push one chunk to object storage and reports it on progress.
func uploadChunk(ctx context.Context, id int, progress chan<- int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	time.Sleep(time.Duration(1+id%3) * time.Millisecond) // network latency
	progress <- id
	return nil
}

// uploadAll uploads every chunk, at most two through the group at once.
func uploadAll(ctx context.Context, chunks []int, progress chan<- int) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	for _, c := range chunks {
		upload := func() error { return uploadChunk(gctx, c, progress) }
		if !g.TryGo(upload) {
			// group saturated: queue behind the limit; Go blocks until a slot frees
			g.Go(upload)
		}
	}
	return g.Wait()
}

func TestUploadReportsEveryChunk(t *testing.T) {
	chunks := []int{1, 2, 3, 4, 5, 6}
	progress := make(chan int, len(chunks))
	counted := make(chan int)
	go func() {
		n := 0
		for range progress {
			n++
		}
		counted <- n
	}()

	if err := uploadAll(context.Background(), chunks, progress); err != nil {
		t.Fatalf("upload: %v", err)
	}
	close(progress) // every upload has reported: Wait returned
	if n := <-counted; n != len(chunks) {
		t.Errorf("progress events = %d, want %d", n, len(chunks))
	}
}
