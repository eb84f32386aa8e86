// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ARGS compile lint err-test package), in the style of a hand-rolled errgroup (first error cancels the rest) in a build tool
// what: one task per argument; the first failure (names starting with "err") is recorded through
//   sync.Once and cancels a shared context; results go to a channel buffered with
//   len(tasks), so no task can block; Wait returns after every task. Correct for any
//   argument list.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

type group struct {
	wg     sync.WaitGroup
	once   sync.Once
	err    error
	cancel context.CancelFunc
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() {
				g.err = err
				g.cancel()
			})
		}
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	g.cancel()
	return g.err
}

func runTask(ctx context.Context, name string) (string, error) {
	if strings.HasPrefix(name, "err") {
		return "", errors.New(name + " failed")
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(3 * time.Millisecond):
		return name + ": done", nil
	}
}

func main() {
	tasks := os.Args[1:]
	ctx, cancel := context.WithCancel(context.Background())
	g := &group{cancel: cancel}
	out := make(chan string, len(tasks))
	for _, t := range tasks {
		g.Go(func() error {
			msg, err := runTask(ctx, t)
			if err == nil {
				out <- msg
			}
			return err
		})
	}
	err := g.Wait()
	close(out)
	for m := range out {
		fmt.Println(m)
	}
	if err != nil {
		fmt.Println("build failed:", err)
	}
}
