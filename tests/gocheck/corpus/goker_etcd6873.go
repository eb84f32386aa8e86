// want: global-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/etcd/6873 (etcd-io/etcd commit 7618fdd); rewritten as package main
// what: stop() holds the mutex while it closes updatec and waits for the broadcaster goroutine to
//   finish; the broadcaster needs the same mutex to coalesce a pending update, so both block
//   (main is the one calling stop: every goroutine blocked; interleaving-dependent)

package main

import "sync"

type watchBroadcast struct{}

type watchBroadcasts struct {
	mu      sync.Mutex
	updatec chan *watchBroadcast
	donec   chan struct{}
}

func newWatchBroadcasts() *watchBroadcasts {
	wbs := &watchBroadcasts{
		updatec: make(chan *watchBroadcast, 1),
		donec:   make(chan struct{}),
	}
	go func() {
		defer close(wbs.donec)
		for wb := range wbs.updatec {
			wbs.coalesce(wb)
		}
	}()
	return wbs
}

func (wbs *watchBroadcasts) coalesce(wb *watchBroadcast) {
	wbs.mu.Lock()
	wbs.mu.Unlock()
}

func (wbs *watchBroadcasts) stop() {
	wbs.mu.Lock()
	defer wbs.mu.Unlock()
	close(wbs.updatec)
	<-wbs.donec
}

func (wbs *watchBroadcasts) update(wb *watchBroadcast) {
	select {
	case wbs.updatec <- wb:
	default:
	}
}

func main() {
	wbs := newWatchBroadcasts()
	wbs.update(&watchBroadcast{})
	wbs.stop()
}
