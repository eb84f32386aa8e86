// want: ok
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of the watcher: the forwarder offers each event in a select that also watches
//   stop, and Close waits for the forwarder to exit, so when goleak.VerifyNone runs at the end of
//   the test no forwarder is left, whichever event it was holding.

package watcher

import (
	"testing"

	"go.uber.org/goleak"
)

type Event struct {
	Path string
	Op   string
}

type Watcher struct {
	out  chan Event
	stop chan struct{}
	done chan struct{}
}

func NewWatcher(src <-chan Event) *Watcher {
	w := &Watcher{out: make(chan Event), stop: make(chan struct{}), done: make(chan struct{})}
	go w.forward(src)
	return w
}

func (w *Watcher) forward(src <-chan Event) {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-src:
			if !ok {
				close(w.out)
				return
			}
			select {
			case w.out <- ev:
			case <-w.stop:
				return
			}
		case <-w.stop:
			return
		}
	}
}

func (w *Watcher) Events() <-chan Event { return w.out }

// Close stops forwarding and waits for the forwarder; pending events are dropped.
func (w *Watcher) Close() {
	close(w.stop)
	<-w.done
}

func TestWatcherDeliversFirstChange(t *testing.T) {
	defer goleak.VerifyNone(t)

	src := make(chan Event, 3)
	src <- Event{Path: "config.yaml", Op: "write"}
	src <- Event{Path: "config.yaml", Op: "chmod"}
	src <- Event{Path: "routes.yaml", Op: "write"}

	w := NewWatcher(src)
	defer w.Close()

	ev := <-w.Events()
	if ev.Path != "config.yaml" || ev.Op != "write" {
		t.Fatalf("first event = %+v", ev)
	}
}
