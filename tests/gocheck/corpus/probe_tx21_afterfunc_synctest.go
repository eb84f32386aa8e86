// want: ok
// source: a debouncer built on time.AfterFunc, as in file watchers and UI input handling, written for this set
// what: each Trigger stops the previous timer and arms a new one under a mutex;
//   tests run in synctest bubbles so the quiet periods take no real time.

package debounce

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

type Debouncer struct {
	mu      sync.Mutex
	wait    time.Duration
	fn      func()
	timer   *time.Timer
	stopped bool
}

func New(wait time.Duration, fn func()) *Debouncer {
	return &Debouncer{wait: wait, fn: fn}
}

func (d *Debouncer) Trigger() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(d.wait, d.fn)
}

// Stop cancels a pending call; it reports whether one was cancelled.
func (d *Debouncer) Stop() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	return d.timer != nil && d.timer.Stop()
}

func TestDebouncer(t *testing.T) {
	tests := []struct {
		name      string
		gaps      []time.Duration
		stopAfter time.Duration
		wantCalls int32
	}{
		{"burst coalesces", []time.Duration{0, 40 * time.Millisecond, 40 * time.Millisecond}, time.Second, 1},
		{"two bursts", []time.Duration{0, 300 * time.Millisecond}, time.Second, 2},
		{"stopped early", []time.Duration{0}, 50 * time.Millisecond, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var calls atomic.Int32
				d := New(100*time.Millisecond, func() { calls.Add(1) })
				start := time.Now()
				for _, gap := range tc.gaps {
					time.Sleep(gap)
					d.Trigger()
				}
				time.Sleep(tc.stopAfter - time.Since(start))
				d.Stop()
				time.Sleep(time.Second)
				synctest.Wait()
				if got := calls.Load(); got != tc.wantCalls {
					t.Errorf("calls = %d, want %d", got, tc.wantCalls)
				}
			})
		})
	}
}
