// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a background worker with Stop() called from both a defer and an error path
// what: Stop closes quit inside a sync.Once, so calling it from the error path and again from
//   the defer is harmless
package main

import (
	"errors"
	"fmt"
	"sync"
)

type Worker struct {
	quit     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
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
	w.stopOnce.Do(func() { close(w.quit) })
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
