// want: global-deadlock
// source: sync.Cond misuse (Wait without a predicate loop, lost wake-up), seen in Go bug fixes
// what: the consumer calls cond.Wait without checking the loaded flag; when the loader's Signal
//   comes first the wake-up is lost and the consumer (and main, waiting on done) block for ever.
package main

import (
	"fmt"
	"sync"
	"time"
)

type config struct {
	mu     sync.Mutex
	cond   *sync.Cond
	loaded bool
	values map[string]string
}

func main() {
	cfg := &config{}
	cfg.cond = sync.NewCond(&cfg.mu)
	done := make(chan struct{})

	go func() { // consumer
		defer close(done)
		time.Sleep(2 * time.Millisecond) // open log files, etc.
		cfg.mu.Lock()
		cfg.cond.Wait() // should be: for !cfg.loaded { cfg.cond.Wait() }
		fmt.Println("listening on", cfg.values["addr"])
		cfg.mu.Unlock()
	}()

	go func() { // loader
		time.Sleep(time.Millisecond) // read the file
		cfg.mu.Lock()
		cfg.values = map[string]string{"addr": ":8080"}
		cfg.loaded = true
		cfg.mu.Unlock()
		cfg.cond.Signal()
	}()

	<-done
}
