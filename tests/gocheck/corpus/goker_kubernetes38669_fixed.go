// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/kubernetes/38669 the fix of kubernetes/kubernetes PR 38669 (sends also watch a done channel); rewritten as package main
// what: the watcher's sends of its initial events select on a done channel that Stop() closes,
//   so the goroutine gives up the sends and finishes once the watcher is stopped

package main

import "sync"

type event int

type cacheWatcher struct {
	sync.Mutex
	input   chan event
	done    chan struct{}
	result  chan event
	stopped bool
}

func (c *cacheWatcher) process(initEvents []event) {
	for _, ev := range initEvents {
		select {
		case c.result <- ev:
		case <-c.done:
		}
	}
	defer close(c.result)
	defer c.Stop()
	for {
		if _, ok := <-c.input; !ok {
			return
		}
	}
}

func (c *cacheWatcher) Stop() {
	c.Lock()
	defer c.Unlock()
	if !c.stopped {
		c.stopped = true
		close(c.input)
		close(c.done)
	}
}

func newCacheWatcher(initEvents []event) *cacheWatcher {
	w := &cacheWatcher{
		input:  make(chan event),
		done:   make(chan struct{}),
		result: make(chan event),
	}
	go w.process(initEvents)
	return w
}

func main() {
	w := newCacheWatcher([]event{1, 2})
	w.Stop()
}
