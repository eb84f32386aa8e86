// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a controller whose Stop holds the state mutex while waiting for its workers
// what: Stop takes c.mu, sets stopping and waits on the worker WaitGroup while still holding the mutex;
//   every worker takes c.mu to check the flag and to record its exit, so the workers and Stop wait on each other for ever.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type Controller struct {
	mu       sync.Mutex
	stopping bool
	queue    chan string
	wg       sync.WaitGroup
	applied  map[string]int
	exited   []int
}

func NewController() *Controller {
	return &Controller{queue: make(chan string, 8), applied: make(map[string]int)}
}

func (c *Controller) Run(workers int) {
	for i := 0; i < workers; i++ {
		c.wg.Add(1)
		go c.worker(i)
	}
}

func (c *Controller) shouldStop() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopping
}

func (c *Controller) markExited(id int) {
	c.mu.Lock()
	c.exited = append(c.exited, id)
	c.mu.Unlock()
}

func (c *Controller) worker(id int) {
	defer c.wg.Done()
	defer c.markExited(id)
	for !c.shouldStop() {
		key, ok := <-c.queue
		if !ok {
			return
		}
		c.mu.Lock()
		c.applied[strings.SplitN(key, "/", 2)[0]]++
		c.mu.Unlock()
	}
}

func (c *Controller) Enqueue(key string) { c.queue <- key }

// Stop asks the workers to finish and waits for them.
func (c *Controller) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopping = true
	close(c.queue)
	c.wg.Wait()
}

func main() {
	c := NewController()
	c.Run(2)
	for _, k := range []string{"ingress/web", "service/web", "ingress/api", "secret/tls"} {
		c.Enqueue(k)
	}
	c.Stop()
	fmt.Println("applied:", c.applied, "workers exited:", len(c.exited))
}
