// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an observer list whose Notify calls listeners while holding the lock
// what: Notify holds mu while calling each listener; a one-shot listener unregisters itself from
//   inside the callback, and Off tries to take mu again: sync.Mutex is not re-entrant
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
	defer e.mu.Unlock()
	for _, f := range e.listeners {
		f(ev) // BUG: called with mu held
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
