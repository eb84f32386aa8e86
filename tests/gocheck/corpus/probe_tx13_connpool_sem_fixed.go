// want: ok
// source: a connection pool bounded by a semaphore channel, fixed version, written for this set
// what: Get gives its semaphore slot back when the dial fails, so failed dials do
//   not shrink the pool.

package connpool

import (
	"errors"
	"sync"
	"testing"
)

type Conn struct{ id int }

type Pool struct {
	sem  chan struct{}
	mu   sync.Mutex
	idle []*Conn
	dial func() (*Conn, error)
}

func New(max int, dial func() (*Conn, error)) *Pool {
	return &Pool{sem: make(chan struct{}, max), dial: dial}
}

func (p *Pool) Get() (*Conn, error) {
	p.sem <- struct{}{}
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	c, err := p.dial()
	if err != nil {
		<-p.sem
		return nil, err
	}
	return c, nil
}

func (p *Pool) Put(c *Conn) {
	p.mu.Lock()
	p.idle = append(p.idle, c)
	p.mu.Unlock()
	<-p.sem
}

func flakyDialer(failures int) func() (*Conn, error) {
	var mu sync.Mutex
	n := 0
	return func() (*Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n <= failures {
			return nil, errors.New("connection refused")
		}
		return &Conn{id: n}, nil
	}
}

func TestPoolGet(t *testing.T) {
	tests := []struct {
		name     string
		failures int
	}{
		{"healthy", 0},
		{"one failure", 1},
		{"two failures", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(2, flakyDialer(tc.failures))
			for i := 0; i < tc.failures; i++ {
				if _, err := p.Get(); err == nil {
					t.Fatalf("Get #%d: want dial error", i)
				}
			}
			c, err := p.Get()
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			p.Put(c)
			c2, err := p.Get()
			if err != nil || c2 != c {
				t.Fatalf("Get after Put = %v, %v; want reused conn", c2, err)
			}
			p.Put(c2)
		})
	}
}
