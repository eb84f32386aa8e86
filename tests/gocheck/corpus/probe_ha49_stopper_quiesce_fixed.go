// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of CockroachDB's stop.Stopper with async tasks that must watch ShouldQuiesce
// what: the intent resolver selects on ShouldQuiesce as well as its request channel, so it returns
//   when the stopper quiesces and Stop's tasks.Wait completes.
package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

var ErrUnavailable = errors.New("stopper: node is quiescing")

type Stopper struct {
	mu        sync.Mutex
	quiescing bool
	quiescer  chan struct{}
	stopped   chan struct{}
	tasks     sync.WaitGroup
	running   map[string]int
}

func NewStopper() *Stopper {
	return &Stopper{quiescer: make(chan struct{}), stopped: make(chan struct{}), running: map[string]int{}}
}

func (s *Stopper) RunAsyncTask(ctx context.Context, name string, f func(context.Context)) error {
	s.mu.Lock()
	if s.quiescing {
		s.mu.Unlock()
		return ErrUnavailable
	}
	s.tasks.Add(1)
	s.running[name]++
	s.mu.Unlock()
	go func() {
		defer s.taskDone(name)
		f(ctx)
	}()
	return nil
}

func (s *Stopper) taskDone(name string) {
	s.mu.Lock()
	s.running[name]--
	s.mu.Unlock()
	s.tasks.Done()
}

func (s *Stopper) ShouldQuiesce() <-chan struct{} { return s.quiescer }

func (s *Stopper) Stop() {
	s.mu.Lock()
	s.quiescing = true
	close(s.quiescer)
	s.mu.Unlock()
	s.tasks.Wait()
	close(s.stopped)
}

type IntentResolver struct {
	stopper  *Stopper
	reqs     chan string
	mu       sync.Mutex
	resolved []string
}

func (ir *IntentResolver) run(ctx context.Context) {
	for {
		select {
		case key := <-ir.reqs:
			ir.mu.Lock()
			ir.resolved = append(ir.resolved, key)
			ir.mu.Unlock()
		case <-ir.stopper.ShouldQuiesce():
			return
		}
	}
}

func gcQueue(stopper *Stopper, work <-chan int, total *int) func(context.Context) {
	return func(ctx context.Context) {
		for {
			select {
			case n := <-work:
				*total += n
			case <-stopper.ShouldQuiesce():
				return
			}
		}
	}
}

func main() {
	ctx := context.Background()
	stopper := NewStopper()
	ir := &IntentResolver{stopper: stopper, reqs: make(chan string)}
	gcWork := make(chan int)
	var gcTotal int
	if err := stopper.RunAsyncTask(ctx, "intent-resolver", ir.run); err != nil {
		fmt.Println(err)
	}
	if err := stopper.RunAsyncTask(ctx, "gc-queue", gcQueue(stopper, gcWork, &gcTotal)); err != nil {
		fmt.Println(err)
	}
	for _, k := range []string{"/table/52/1", "/table/52/7", "/table/53/2"} {
		ir.reqs <- k
	}
	gcWork <- 3
	gcWork <- 5

	stopper.Stop()
	if err := stopper.RunAsyncTask(ctx, "late-task", func(context.Context) {}); err != nil {
		fmt.Println("late task:", err)
	}
	sort.Strings(ir.resolved)
	fmt.Println("resolved", ir.resolved, "gc", gcTotal)
}
