// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/etcd/6873 the fix of etcd-io/etcd commit 7618fdd (wait outside the lock); rewritten as package main
// what: stop() closes updatec under the mutex but releases it before it waits for the
//   broadcaster goroutine, which can then take the mutex to coalesce and finish

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
	close(wbs.updatec)
	wbs.mu.Unlock()
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
