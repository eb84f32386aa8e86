// want: global-deadlock
// source: the "if !t.Stop() { <-t.C }" timer-reset idiom misapplied in a debouncer, written for this set
// what: the loop drains t.C whenever Stop returns false, but the timer was created
//   stopped, so the first event blocks the loop on t.C and the next Trigger blocks too.

package debounce

import (
	"sync"
	"testing"
	"time"
)

type Debouncer struct {
	wait   time.Duration
	fn     func()
	events chan struct{}
	quit   chan struct{}
	done   chan struct{}
	once   sync.Once
}

func New(wait time.Duration, fn func()) *Debouncer {
	d := &Debouncer{wait: wait, fn: fn, events: make(chan struct{}), quit: make(chan struct{}), done: make(chan struct{})}
	go d.loop()
	return d
}

func (d *Debouncer) loop() {
	defer close(d.done)
	t := time.NewTimer(d.wait)
	t.Stop()
	for {
		select {
		case <-d.events:
			if !t.Stop() {
				<-t.C
			}
			t.Reset(d.wait)
		case <-t.C:
			d.fn()
		case <-d.quit:
			t.Stop()
			return
		}
	}
}

// Trigger (re)starts the quiet period.
func (d *Debouncer) Trigger() {
	select {
	case d.events <- struct{}{}:
	case <-d.done:
	}
}

func (d *Debouncer) Close() {
	d.once.Do(func() { close(d.quit) })
	<-d.done
}

func TestDebounceCoalesces(t *testing.T) {
	fired := make(chan struct{}, 8)
	d := New(5*time.Millisecond, func() { fired <- struct{}{} })
	t.Cleanup(d.Close)
	for i := 0; i < 3; i++ {
		d.Trigger()
	}
	select {
	case <-fired:
	case <-time.After(2 * time.Second):
		t.Fatal("debounced function never ran")
	}
}

func TestDebounceClose(t *testing.T) {
	d := New(time.Hour, func() { t.Error("must not fire") })
	d.Close()
	d.Trigger()
	d.Close()
}
