// want: ok
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: a ticker-driven flusher tested in a synctest bubble: 3.5 s of fake time give
//   three ticks, and Close stops the loop and waits for it

package flush

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type Flusher struct {
	mu   sync.Mutex
	n    int
	stop chan struct{}
	done chan struct{}
}

func NewFlusher() *Flusher {
	f := &Flusher{stop: make(chan struct{}), done: make(chan struct{})}
	go f.loop()
	return f
}

func (f *Flusher) loop() {
	defer close(f.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			f.mu.Lock()
			f.n++
			f.mu.Unlock()
		case <-f.stop:
			return
		}
	}
}

func (f *Flusher) Close() { close(f.stop); <-f.done }

func TestFlush(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewFlusher()
		time.Sleep(3500 * time.Millisecond)
		synctest.Wait()
		f.mu.Lock()
		n := f.n
		f.mu.Unlock()
		if n != 3 {
			t.Errorf("n = %d", n)
		}
		f.Close()
	})
}
