// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a package whose tests share one lazily started background indexer
// what: both tests get the shared indexer through a sync.Once helper, but the first test also registers
//   its Stop with t.Cleanup; go test runs TestIndexAdd then TestIndexCount, and the second test's Add
//   blocks for ever on the stopped indexer's request channel

package index

import (
	"sync"
	"testing"
)

type Indexer struct {
	reqs chan string
	quit chan struct{}
	done chan struct{}
	mu   sync.Mutex
	n    int
}

func startIndexer() *Indexer {
	ix := &Indexer{reqs: make(chan string), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(ix.done)
		for {
			select {
			case <-ix.reqs:
				ix.mu.Lock()
				ix.n++
				ix.mu.Unlock()
			case <-ix.quit:
				return
			}
		}
	}()
	return ix
}

func (ix *Indexer) Add(doc string) { ix.reqs <- doc }

func (ix *Indexer) Count() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.n
}

func (ix *Indexer) Stop() {
	close(ix.quit)
	<-ix.done
}

var (
	sharedOnce sync.Once
	shared     *Indexer
)

func testIndexer(t *testing.T) *Indexer {
	t.Helper()
	sharedOnce.Do(func() { shared = startIndexer() })
	return shared
}

func TestIndexAdd(t *testing.T) {
	ix := testIndexer(t)
	t.Cleanup(ix.Stop) // BUG: stops the indexer the other tests share
	ix.Add("doc1")
}

func TestIndexCount(t *testing.T) {
	ix := testIndexer(t)
	ix.Add("doc2")
	if ix.Count() < 1 {
		t.Errorf("Count = %d", ix.Count())
	}
}
