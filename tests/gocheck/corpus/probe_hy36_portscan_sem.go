// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS 80 http x1 y2 443), in the style of a port checker limiting concurrency with a semaphore channel
// what: main acquires a slot of a 3-slot semaphore before starting each check; the check
//   releases the slot only on the success path, so every unparsable port leaks a slot. After
//   3 bad ports the next acquire blocks for ever while all checkers have finished: deadlock
//   needs >= 3 bad ports followed by at least one more port.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

type checker struct {
	mu   sync.Mutex
	open map[int]bool
	sem  chan struct{}
}

func (c *checker) check(arg string, wg *sync.WaitGroup) {
	defer wg.Done()
	port, err := strconv.Atoi(arg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "skip %q: %v\n", arg, err)
		return
	}
	c.mu.Lock()
	c.open[port] = port%2 == 1 || port == 80 || port == 443
	c.mu.Unlock()
	<-c.sem
}

func main() {
	c := &checker{open: map[int]bool{}, sem: make(chan struct{}, 3)}
	var wg sync.WaitGroup
	for _, a := range os.Args[1:] {
		c.sem <- struct{}{}
		wg.Add(1)
		go c.check(a, &wg)
	}
	wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, open := range c.open {
		fmt.Printf("port %d open=%v\n", p, open)
	}
}
