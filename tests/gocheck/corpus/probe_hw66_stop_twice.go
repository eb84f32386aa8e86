// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a background worker with Stop() called from both a defer and an error path
// what: run() calls w.Stop() on the error path and also has defer w.Stop(); Stop closes the
//   quit channel unconditionally, so the second call panics with close of closed channel
package main

import (
	"errors"
	"fmt"
	"sync"
)

type Worker struct {
	quit chan struct{}
	wg   sync.WaitGroup
}

func Start() *Worker {
	w := &Worker{quit: make(chan struct{})}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		<-w.quit
	}()
	return w
}

func (w *Worker) Stop() {
	close(w.quit) // BUG: not idempotent
	w.wg.Wait()
}

func run() error {
	w := Start()
	defer w.Stop()
	if err := errors.New("migration failed"); err != nil {
		w.Stop()
		return fmt.Errorf("run: %w", err)
	}
	return nil
}

func main() {
	fmt.Println(run())
}
