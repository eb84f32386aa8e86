// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of config hot-reload through atomic.Value with a reload notification channel
// what: readers wait on the notification channel stored with the config; the reloader stores a
//   new config but forgets to close the old one's channel, so the watcher stays blocked after
//   main returns (a leak)
package main

import (
	"fmt"
	"sync/atomic"
)

type config struct {
	limit   int
	changed chan struct{}
}

func main() {
	var v atomic.Value
	v.Store(&config{limit: 10, changed: make(chan struct{})})
	seen := make(chan int, 1)
	go func() {
		c := v.Load().(*config)
		<-c.changed // waits for the next reload
		seen <- v.Load().(*config).limit
	}()
	v.Store(&config{limit: 20, changed: make(chan struct{})}) // BUG: old.changed never closed
	select {
	case l := <-seen:
		fmt.Println("reloaded to", l)
	default:
		fmt.Println("no reload seen yet")
	}
}
