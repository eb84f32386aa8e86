// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/kubernetes/38669 (kubernetes/kubernetes PR 38669); rewritten as package main
// what: the cache watcher's goroutine first sends its initial events on the unbuffered result
//   channel, which nobody reads; Stop() closes input but the goroutine stays blocked on result

package main

import "sync"

type event int

type cacheWatcher struct {
	sync.Mutex
	input   chan event
	result  chan event
	stopped bool
}

func (c *cacheWatcher) process(initEvents []event) {
	for _, ev := range initEvents {
		c.result <- ev
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
	}
}

func newCacheWatcher(initEvents []event) *cacheWatcher {
	w := &cacheWatcher{input: make(chan event), result: make(chan event)}
	go w.process(initEvents)
	return w
}

func main() {
	w := newCacheWatcher([]event{1, 2})
	w.Stop()
}
