// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a service registry whose Deregister forgets to Unlock on the not-found path
// what: Deregister of an unknown id returns ErrNotFound while still holding the mutex; the
//   next Register (in another goroutine) blocks on Lock for ever and main waits for it
package main

import (
	"errors"
	"fmt"
	"sync"
)

var ErrNotFound = errors.New("not found")

type Registry struct {
	mu       sync.Mutex
	services map[string]string
}

func (r *Registry) Register(id, addr string) {
	r.mu.Lock()
	r.services[id] = addr
	r.mu.Unlock()
}

func (r *Registry) Deregister(id string) error {
	r.mu.Lock()
	if _, ok := r.services[id]; !ok {
		return ErrNotFound // BUG: r.mu still locked
	}
	delete(r.services, id)
	r.mu.Unlock()
	return nil
}

func main() {
	r := &Registry{services: map[string]string{}}
	if err := r.Deregister("api-1"); err != nil {
		fmt.Println("deregister:", err)
	}
	done := make(chan struct{})
	go func() {
		r.Register("api-2", "10.0.0.2:80")
		close(done)
	}()
	<-done
	fmt.Println("registered")
}
