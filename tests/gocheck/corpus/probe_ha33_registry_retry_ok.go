// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a retry helper with exponential backoff, a reusable timer and context cancellation
// what: three concurrent pulls retry transient errors with a stopped-and-reset timer, stop at once on
//   permanent errors, and return the context's error if it is cancelled between attempts; main waits for all.
package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

var (
	ErrTransient = errors.New("temporary failure")
	ErrNotFound  = errors.New("manifest unknown")
)

type Backoff struct {
	Initial, Max time.Duration
	Attempts     int
}

func Retry(ctx context.Context, b Backoff, op func(attempt int) error) error {
	delay := b.Initial
	timer := time.NewTimer(time.Hour)
	if !timer.Stop() {
		<-timer.C
	}
	defer timer.Stop()
	var err error
	for attempt := 1; attempt <= b.Attempts; attempt++ {
		if err = op(attempt); err == nil || !errors.Is(err, ErrTransient) {
			return err
		}
		timer.Reset(delay)
		select {
		case <-timer.C:
		case <-ctx.Done():
			return fmt.Errorf("retry cancelled after %d attempts: %w", attempt, ctx.Err())
		}
		if delay *= 2; delay > b.Max {
			delay = b.Max
		}
	}
	return fmt.Errorf("after %d attempts: %w", b.Attempts, err)
}

type registry struct {
	mu    sync.Mutex
	calls map[string]int
}

func (r *registry) pull(ref string, attempt int, cancel context.CancelFunc) error {
	r.mu.Lock()
	r.calls[ref]++
	r.mu.Unlock()
	switch {
	case strings.HasSuffix(ref, ":missing"):
		return fmt.Errorf("%s: %w", ref, ErrNotFound)
	case strings.HasSuffix(ref, ":shutdown") && attempt == 2:
		cancel() // the daemon is shutting down
		return fmt.Errorf("%s: %w", ref, ErrTransient)
	case attempt < 3:
		return fmt.Errorf("%s: %w", ref, ErrTransient)
	}
	return nil
}

func main() {
	reg := &registry{calls: map[string]int{}}
	b := Backoff{Initial: 200 * time.Microsecond, Max: time.Millisecond, Attempts: 5}
	refs := []string{"nginx:1.27", "app:missing", "sidecar:shutdown"}
	results := make([]error, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		ctx, cancel := context.WithCancel(context.Background())
		wg.Add(1)
		go func(i int, ref string) {
			defer wg.Done()
			defer cancel()
			results[i] = Retry(ctx, b, func(attempt int) error { return reg.pull(ref, attempt, cancel) })
		}(i, ref)
	}
	wg.Wait()
	for i, ref := range refs {
		fmt.Printf("%-18s calls=%d err=%v\n", ref, reg.calls[ref], results[i])
	}
}
