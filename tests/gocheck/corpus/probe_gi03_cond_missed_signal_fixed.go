// want: ok
// source: sync.Cond misuse (Wait without a predicate loop, lost wake-up), fixed
// what: the consumer waits in `for !cfg.loaded` under the lock, so a Signal sent before it waits
//   is not needed: it sees loaded == true and goes on.
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
		for !cfg.loaded {
			cfg.cond.Wait()
		}
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
