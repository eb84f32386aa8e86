// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of third-party concurrency modules (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a file-change watcher forwards events from its source to subscribers on an unbuffered channel;
//   the test (guarded by goleak.VerifyNone) reads one event and closes the watcher. If the forwarder
//   has already taken the next event, it blocks on `w.out <- ev`, which has no stop case, for ever;
//   when Close wins the select first nothing leaks, so the leak depends on the interleaving.

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
}

func NewWatcher(src <-chan Event) *Watcher {
	w := &Watcher{out: make(chan Event), stop: make(chan struct{})}
	go w.forward(src)
	return w
}

func (w *Watcher) forward(src <-chan Event) {
	for {
		select {
		case ev, ok := <-src:
			if !ok {
				close(w.out)
				return
			}
			w.out <- ev
		case <-w.stop:
			return
		}
	}
}

func (w *Watcher) Events() <-chan Event { return w.out }

// Close stops forwarding; pending events are dropped.
func (w *Watcher) Close() { close(w.stop) }

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
