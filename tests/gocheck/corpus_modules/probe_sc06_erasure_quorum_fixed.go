// want: ok
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_sc06_erasure_quorum (a minio-style erasure-coded PUT): the collector keeps
//   the first error but drains results until the closer goroutine closes it after g.Wait(), so
//   every writer's send is received and no goroutine is left when putObject returns

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"
)

var errDiskNotFound = errors.New("disk not found")

type disk struct {
	id      int
	offline bool
	mu      sync.Mutex
	parts   map[string][]byte
}

func (d *disk) writeShard(ctx context.Context, object string, shard []byte) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(d.id+1) * 200 * time.Microsecond):
	}
	if d.offline {
		return errDiskNotFound
	}
	d.mu.Lock()
	d.parts[object] = shard
	d.mu.Unlock()
	return nil
}

type writeResult struct {
	disk int
	err  error
}

func putObject(ctx context.Context, disks []*disk, object string, data []byte) error {
	g, gctx := errgroup.WithContext(ctx)
	results := make(chan writeResult)
	shardSize := (len(data) + len(disks) - 1) / len(disks)
	for i, d := range disks {
		shard := data[min(i*shardSize, len(data)):min((i+1)*shardSize, len(data))]
		g.Go(func() error {
			err := d.writeShard(gctx, object, shard)
			results <- writeResult{disk: d.id, err: err}
			return err
		})
	}
	go func() {
		g.Wait()
		close(results)
	}()

	written, firstErr := 0, error(nil)
	for r := range results {
		if r.err == nil {
			written++
		} else if firstErr == nil {
			firstErr = fmt.Errorf("disk %d: %w", r.disk, r.err)
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if written < len(disks)/2+1 {
		return errors.New("write quorum not met")
	}
	return nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()

	disks := make([]*disk, 4)
	for i := range disks {
		disks[i] = &disk{id: i, offline: i == 1, parts: map[string][]byte{}}
	}
	err := putObject(ctx, disks, "bucket/photo.jpg", []byte("0123456789abcdef"))
	fmt.Println("put:", err)
}
