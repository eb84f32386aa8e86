// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an app lifecycle that runs registered shutdown hooks in reverse order (slices.Reverse)
// what: each started component registers a stop hook that closes its quit channel and waits for
//   its goroutine; the hooks run last-registered first; every goroutine ends
package main

import (
	"fmt"
	"slices"
	"sync"
)

type App struct {
	hooks []func()
}

func (a *App) start(name string, wg *sync.WaitGroup) {
	quit := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		<-quit
		fmt.Println("stopped", name)
	}()
	a.hooks = append(a.hooks, func() {
		close(quit)
		<-exited
	})
}

func main() {
	a := &App{}
	var wg sync.WaitGroup
	a.start("db", &wg)
	a.start("http", &wg)
	slices.Reverse(a.hooks)
	for _, stop := range a.hooks {
		stop()
	}
}
