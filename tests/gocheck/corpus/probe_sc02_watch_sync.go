// want: global-deadlock
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: an etcd-style watchable store: the ticker/kick-driven syncWatchersLoop holds the store's
//   read lock while it sends a watcher's pending events on its unbuffered channel; the test reads
//   two events and cancels the watcher, whose Lock waits for that read lock while the syncer waits
//   for a reader of event 3, so the test and the syncer block for ever (the test never ends)

package mvcc

import (
	"context"
	"sync"
	"testing"
	"time"
)

type event struct {
	rev int64
	key string
}

type watcher struct {
	next int // index in history of the next event to deliver; only the syncer uses it
	ch   chan event
	done chan struct{}
	once sync.Once
}

type watchableStore struct {
	mu       sync.RWMutex
	history  []event
	watchers map[*watcher]struct{} // etcd-style watcher set
	kick     chan struct{}
}

func newWatchableStore() *watchableStore {
	return &watchableStore{watchers: make(map[*watcher]struct{}), kick: make(chan struct{}, 1)}
}

func (s *watchableStore) watch() *watcher {
	w := &watcher{ch: make(chan event), done: make(chan struct{})}
	s.mu.Lock()
	s.watchers[w] = struct{}{}
	s.mu.Unlock()
	return w
}

func (s *watchableStore) cancel(w *watcher) {
	s.mu.Lock()
	delete(s.watchers, w)
	s.mu.Unlock()
	w.once.Do(func() { close(w.done) })
}

func (s *watchableStore) put(key string) {
	s.mu.Lock()
	s.history = append(s.history, event{rev: int64(len(s.history) + 1), key: key})
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *watchableStore) syncWatchersLoop(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.kick:
		}
		s.syncWatchers()
	}
}

func (s *watchableStore) syncWatchers() {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for w := range s.watchers {
		for ; w.next < len(s.history); w.next++ {
			w.ch <- s.history[w.next] // BUG: a blocking send with the read lock held
		}
	}
}

func TestWatchCancelMidStream(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	s := newWatchableStore()
	var wg sync.WaitGroup
	wg.Add(1)
	go s.syncWatchersLoop(ctx, &wg)
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})

	w := s.watch()
	for _, k := range []string{"foo", "bar", "baz", "qux", "quux"} {
		s.put(k)
	}
	for ev := range w.ch {
		if ev.rev == 2 {
			break
		}
	}
	s.cancel(w)
}
