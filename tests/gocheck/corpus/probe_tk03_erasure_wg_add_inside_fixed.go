// want: ok
// source: written for chanfuzz as a held-out probe of bug kernels as test files (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fix of probe_tk03_erasure_wg_add_inside (minio-style parallel shard writes):
//   wg.Add(1) is called before each writer's go statement, so the closer waits for all 16

package erasure

import (
	"errors"
	"sync"
	"testing"
)

var errDiskNotFound = errors.New("disk not found")

type disk struct {
	mu      sync.Mutex
	id      int
	offline bool
	shards  int
}

func (d *disk) WriteShard(block []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.offline {
		return errDiskNotFound
	}
	d.shards++
	return nil
}

type Erasure struct {
	disks       []*disk
	writeQuorum int
}

func NewErasure(n int) *Erasure {
	e := &Erasure{writeQuorum: n/2 + 1}
	for i := 0; i < n; i++ {
		e.disks = append(e.disks, &disk{id: i, offline: i%5 == 4})
	}
	return e
}

// writeBlock writes one block's shards to every disk in parallel and counts the failures.
func (e *Erasure) writeBlock(block []byte) (int, error) {
	var wg sync.WaitGroup
	errs := make(chan error, len(e.disks))
	for _, d := range e.disks {
		wg.Add(1)
		go func(d *disk) {
			defer wg.Done()
			errs <- d.WriteShard(block)
		}(d)
	}
	go func() {
		wg.Wait()
		close(errs)
	}()
	ok, failed := 0, 0
	for err := range errs {
		if err != nil {
			failed++
		} else {
			ok++
		}
	}
	if ok < e.writeQuorum {
		return failed, errors.New("write quorum not reached")
	}
	return failed, nil
}

func TestErasureWrite(t *testing.T) {
	e := NewErasure(16)
	for i := 0; i < 8; i++ {
		block := make([]byte, 64)
		block[0] = byte(i)
		if _, err := e.writeBlock(block); err != nil {
			t.Logf("block %d: %v", i, err)
		}
	}
	total := 0
	for _, d := range e.disks {
		d.mu.Lock()
		total += d.shards
		d.mu.Unlock()
	}
	t.Logf("%d shards written", total)
}
