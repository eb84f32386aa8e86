// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on hand-rolled errgroup clones (copylocks bug)
// what: fixed version: Wait has a pointer receiver, so it waits on the same WaitGroup the
//   workers' Done calls decrement and returns once both workers have drained the channel.

package main

import (
	"errors"
	"fmt"
	"sync"
)

type Group struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
}

func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			g.errs = append(g.errs, err)
			g.mu.Unlock()
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	return errors.Join(g.errs...)
}

type shard struct {
	id    int
	items []int
}

func checksum(shards []shard) (int, error) {
	var g Group
	var mu sync.Mutex
	total := 0
	in := make(chan shard)
	for range 2 {
		g.Go(func() error {
			for s := range in {
				if len(s.items) == 0 {
					return fmt.Errorf("shard %d empty", s.id)
				}
				sum := 0
				for _, v := range s.items {
					sum += v
				}
				mu.Lock()
				total += sum
				mu.Unlock()
			}
			return nil
		})
	}
	for _, s := range shards {
		in <- s
	}
	close(in)
	if err := g.Wait(); err != nil {
		return 0, err
	}
	return total, nil
}

func main() {
	shards := []shard{{1, []int{1, 2}}, {2, []int{3}}, {3, []int{4, 5, 6}}}
	fmt.Println(checksum(shards))
}
