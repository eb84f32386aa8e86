// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a write-ahead log whose Append returns on a validation error without unlocking
// what: Append locks, finds an empty record and returns the error with mu still held; the
//   background syncer then blocks on mu.Lock for ever while main reports the error and returns
package main

import (
	"errors"
	"fmt"
	"sync"
)

type WAL struct {
	mu      sync.Mutex
	records []string
	synced  int
}

func (w *WAL) Append(rec string) error {
	w.mu.Lock()
	if rec == "" {
		return errors.New("empty record") // BUG: w.mu still held
	}
	w.records = append(w.records, rec)
	w.mu.Unlock()
	return nil
}

func (w *WAL) syncer(kick <-chan struct{}) {
	for range kick {
		w.mu.Lock()
		w.synced = len(w.records)
		w.mu.Unlock()
	}
}

func main() {
	w := &WAL{}
	kick := make(chan struct{}, 1)
	go w.syncer(kick)
	for _, r := range []string{"put a", ""} {
		if err := w.Append(r); err != nil {
			fmt.Println("append:", err)
			kick <- struct{}{}
			break
		}
	}
}
