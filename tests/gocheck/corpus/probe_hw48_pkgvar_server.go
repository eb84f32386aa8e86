// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a package-level singleton whose initializer starts a goroutine
// what: the package-level var is initialized by startPool(), which starts one worker; main
//   submits two jobs and waits for two results, but the worker exits after its first job
package main

import "fmt"

type pool struct {
	jobs    chan int
	results chan int
}

var defaultPool = startPool()

func startPool() *pool {
	p := &pool{jobs: make(chan int), results: make(chan int)}
	go func() {
		j := <-p.jobs // BUG: handles one job and exits; should loop
		p.results <- j * 2
	}()
	return p
}

func main() {
	go func() {
		for i := 1; i <= 2; i++ {
			defaultPool.jobs <- i
		}
	}()
	fmt.Println(<-defaultPool.results, <-defaultPool.results)
}
