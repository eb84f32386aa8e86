// want: channel-safety
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (istio-style) a watcher embeds a notifier whose events channel is fed by a background
//   goroutine; Close() (called through an io-style Closer interface) closes the embedded events
//   channel while the goroutine still has an event to send: send on closed channel

package main

import (
	"fmt"
	"sync"
)

type Closer interface {
	Close() error
}

type notifier struct {
	events chan string
}

func (n *notifier) notify(e string) {
	n.events <- e
}

type watcher struct {
	notifier
	quit      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

func newWatcher() *watcher {
	w := &watcher{notifier: notifier{events: make(chan string)}, quit: make(chan struct{})}
	w.wg.Add(1)
	go w.loop()
	return w
}

func (w *watcher) loop() {
	defer w.wg.Done()
	for _, e := range []string{"add", "update"} {
		w.notify(e) // BUG: ignores quit
	}
}

func (w *watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.quit)
		close(w.events) // BUG: the sender may still be sending
	})
	return nil
}

func main() {
	w := newWatcher()
	var c Closer = w
	fmt.Println(<-w.events)
	c.Close()
	w.wg.Wait()
}
