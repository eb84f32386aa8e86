// want: ok
// source: written for chanfuzz as a held-out probe (round 13, real blocking bugs in Go projects), modelled on docker/swarmkit dispatcher + nodeStore heartbeat expiry
// what: fixed as swarmkit does: tick collects the expired node IDs under nodeStore.mu and calls
//
//	the dispatcher callback only after unlocking, so no goroutine holds nodeStore.mu while
//	waiting for d.mu; the only nesting left is d.mu -> nodeStore.mu and nothing blocks for ever.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

type registeredNode struct {
	ID        string
	heartbeat int
	status    string
}

type nodeStore struct {
	mu       sync.Mutex
	nodes    map[string]*registeredNode
	onExpire func(id string)
}

func (s *nodeStore) add(id string, ttl int) {
	s.mu.Lock()
	s.nodes[id] = &registeredNode{ID: id, heartbeat: ttl, status: "ready"}
	s.mu.Unlock()
}

// tick ages every heartbeat by one and expires nodes whose heartbeat ran out.
func (s *nodeStore) tick() {
	s.mu.Lock()
	var expired []string
	for id, n := range s.nodes {
		n.heartbeat--
		if n.heartbeat <= 0 && n.status == "ready" {
			n.status = "down"
			runtime.Gosched()
			expired = append(expired, id)
		}
	}
	s.mu.Unlock()
	for _, id := range expired {
		s.onExpire(id) // outside s.mu
	}
}

type Dispatcher struct {
	mu      sync.Mutex
	store   *nodeStore
	down    []string
	running bool
}

func NewDispatcher() *Dispatcher {
	d := &Dispatcher{running: true}
	d.store = &nodeStore{nodes: make(map[string]*registeredNode), onExpire: d.nodeDown}
	return d
}

func (d *Dispatcher) nodeDown(id string) {
	d.mu.Lock()
	d.down = append(d.down, id)
	d.mu.Unlock()
}

func (d *Dispatcher) heartbeatLoop(rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < rounds; i++ {
		d.store.tick()
		runtime.Gosched()
	}
}

// Stop marks every remaining node unknown so that they re-register with the next leader.
func (d *Dispatcher) Stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.running = false
	runtime.Gosched()
	d.store.mu.Lock()
	for _, n := range d.store.nodes {
		if n.status == "ready" {
			n.status = "unknown"
		}
	}
	d.store.mu.Unlock()
}

func main() {
	d := NewDispatcher()
	for i, ttl := range []int{1, 2, 3} {
		d.store.add(fmt.Sprintf("worker-%d", i), ttl)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go d.heartbeatLoop(3, &wg)
	runtime.Gosched()
	d.Stop()
	wg.Wait()
	fmt.Println("nodes down:", len(d.down))
}
