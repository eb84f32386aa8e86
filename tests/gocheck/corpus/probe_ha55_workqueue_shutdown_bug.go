// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Kubernetes client-go work queue fed by informer event handlers
// what: ShutDown closes the queue's item channel, but the informer's last resync handler still calls
//   Add after the controller has stopped, and Add sends on the closed channel without checking.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type Queue struct {
	mu    sync.Mutex
	dirty map[string]bool
	items chan string
}

func NewQueue(size int) *Queue {
	return &Queue{dirty: make(map[string]bool), items: make(chan string, size)}
}

// Add enqueues key unless it is already waiting to be processed.
func (q *Queue) Add(key string) {
	q.mu.Lock()
	if q.dirty[key] {
		q.mu.Unlock()
		return
	}
	q.dirty[key] = true
	q.mu.Unlock()
	q.items <- key
}

// Get hands out the next key; ok is false once the queue is shut down and drained.
func (q *Queue) Get() (string, bool) {
	key, ok := <-q.items
	if !ok {
		return "", false
	}
	q.mu.Lock()
	delete(q.dirty, key)
	q.mu.Unlock()
	return key, true
}

func (q *Queue) ShutDown() {
	close(q.items)
}

type Controller struct {
	queue   *Queue
	workers int
	wg      sync.WaitGroup
	mu      sync.Mutex
	synced  map[string]int
}

func NewController(q *Queue, workers int) *Controller {
	return &Controller{queue: q, workers: workers, synced: make(map[string]int)}
}

func (c *Controller) Run() {
	for i := 0; i < c.workers; i++ {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			for {
				key, ok := c.queue.Get()
				if !ok {
					return
				}
				if err := c.sync(key); err != nil {
					fmt.Println("sync failed:", err)
				}
			}
		}()
	}
}

func (c *Controller) sync(key string) error {
	ns, name, found := strings.Cut(key, "/")
	if !found {
		return fmt.Errorf("bad key %q", key)
	}
	c.mu.Lock()
	c.synced[ns+"/"+name]++
	c.mu.Unlock()
	return nil
}

func (c *Controller) onUpdate(key string) { c.queue.Add(key) }

func (c *Controller) Wait() { c.wg.Wait() }

func main() {
	q := NewQueue(16)
	c := NewController(q, 2)
	c.Run()
	for _, key := range []string{"default/web-0", "default/web-1", "kube-system/dns", "default/web-0"} {
		c.onUpdate(key)
	}
	q.ShutDown()
	c.Wait()
	fmt.Println("controller stopped, synced", len(c.synced), "objects")
	// The informer's final resync fires after the controller has stopped.
	c.onUpdate("default/web-1")
}
