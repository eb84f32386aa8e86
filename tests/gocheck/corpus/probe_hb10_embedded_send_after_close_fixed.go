// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of hb10: the sender selects on quit, and Close() waits for it to exit
//   before closing the events channel

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

func (n *notifier) notify(e string, quit <-chan struct{}) bool {
	select {
	case n.events <- e:
		return true
	case <-quit:
		return false
	}
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
		if !w.notify(e, w.quit) {
			return
		}
	}
}

func (w *watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.quit)
		w.wg.Wait()
		close(w.events)
	})
	return nil
}

func main() {
	w := newWatcher()
	var c Closer = w
	fmt.Println(<-w.events)
	c.Close()
	c.Close()
}
