// want: channel-safety
// source: a Stop method that closes its quit channel without sync.Once, a frequent Go bug report, written for this set
// what: the test stops the poller explicitly and again from t.Cleanup;
//   the second Stop closes the already closed quit channel.

package poller

import (
	"sync"
	"testing"
)

type Poller struct {
	quit  chan struct{}
	ticks chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	polls int
}

func Start() *Poller {
	p := &Poller{quit: make(chan struct{}), ticks: make(chan struct{})}
	p.wg.Add(1)
	go p.loop()
	return p
}

func (p *Poller) loop() {
	defer p.wg.Done()
	for {
		select {
		case <-p.ticks:
			p.mu.Lock()
			p.polls++
			p.mu.Unlock()
		case <-p.quit:
			return
		}
	}
}

// Poke triggers one poll.
func (p *Poller) Poke() { p.ticks <- struct{}{} }

func (p *Poller) Polls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.polls
}

func (p *Poller) Stop() {
	close(p.quit)
	p.wg.Wait()
}

func TestPoller(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		p := Start()
		t.Cleanup(p.Stop)
		for i := 0; i < n; i++ {
			p.Poke()
		}
		p.Stop()
		if got := p.Polls(); got != n {
			t.Fatalf("polls = %d, want %d", got, n)
		}
	}
}
