// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an observer list whose Notify calls listeners while holding the lock
// what: Notify copies the listeners under the lock and calls them after releasing it, so a
//   listener may unregister itself
package main

import (
	"fmt"
	"sync"
)

type Emitter struct {
	mu        sync.Mutex
	listeners map[int]func(string)
	next      int
}

func (e *Emitter) On(f func(string)) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.next++
	e.listeners[e.next] = f
	return e.next
}

func (e *Emitter) Off(id int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.listeners, id)
}

func (e *Emitter) Notify(ev string) {
	e.mu.Lock()
	fs := make([]func(string), 0, len(e.listeners))
	for _, f := range e.listeners {
		fs = append(fs, f)
	}
	e.mu.Unlock()
	for _, f := range fs {
		f(ev)
	}
}

func main() {
	e := &Emitter{listeners: map[int]func(string){}}
	var id int
	id = e.On(func(ev string) {
		fmt.Println("once:", ev)
		e.Off(id)
	})
	done := make(chan struct{})
	go func() {
		e.Notify("ready")
		close(done)
	}()
	<-done
}
