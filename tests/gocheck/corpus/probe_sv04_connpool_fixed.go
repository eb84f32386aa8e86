// want: ok
// source: written for chanfuzz as a held-out probe of service-like programs (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: The connection pool of probe_sv04_connpool.go fixed: Close closes the pool inside a sync.Once, so the
//   health checker's Close and main's racing Close close the channel once; the semaphore never runs out.

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

var (
	ErrPoolClosed = errors.New("pool: closed")
	ErrPingFailed = errors.New("conn: ping failed")
)

// Conn is a (fake) database connection.
type Conn interface {
	ID() int
	Query(q string) (int, error)
	Ping() error
	Close() error
}

type fakeConn struct {
	id     int
	failAt int // the ping number from which on the backend is "down"
	pings  int
	closed bool
}

func (c *fakeConn) ID() int { return c.id }

func (c *fakeConn) Query(q string) (int, error) {
	if c.closed {
		return 0, errors.New("conn: closed")
	}
	return len(q), nil
}

func (c *fakeConn) Ping() error {
	c.pings++
	if c.failAt > 0 && c.pings >= c.failAt {
		return ErrPingFailed
	}
	return nil
}

func (c *fakeConn) Close() error {
	c.closed = true
	return nil
}

type Dialer func(id int) (Conn, error)

type Pool struct {
	dial   Dialer
	sem    chan struct{} // limits open connections
	idle   chan Conn
	closed chan struct{}
	once   sync.Once

	mu     sync.Mutex
	nextID int
	opened int
}

func NewPool(dial Dialer, maxOpen int) *Pool {
	return &Pool{
		dial:   dial,
		sem:    make(chan struct{}, maxOpen),
		idle:   make(chan Conn, maxOpen),
		closed: make(chan struct{}),
	}
}

func (p *Pool) Get(ctx context.Context) (Conn, error) {
	select {
	case <-p.closed:
		return nil, ErrPoolClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	case p.sem <- struct{}{}:
	}
	select {
	case c := <-p.idle:
		return c, nil
	default:
	}
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.opened++
	p.mu.Unlock()
	c, err := p.dial(id)
	if err != nil {
		<-p.sem
		return nil, err
	}
	return c, nil
}

func (p *Pool) Put(c Conn) {
	defer func() { <-p.sem }()
	select {
	case <-p.closed:
		c.Close()
		return
	default:
	}
	select {
	case p.idle <- c:
	default:
		c.Close()
	}
}

// Close closes the pool and its idle connections.
func (p *Pool) Close() error {
	err := ErrPoolClosed
	p.once.Do(func() {
		close(p.closed)
		err = nil
	})
	if err != nil {
		return err
	}
	for {
		select {
		case c := <-p.idle:
			c.Close()
		default:
			return nil
		}
	}
}

// healthCheck pings a pooled connection a few times and tears the pool down
// when the backend stops answering.
func healthCheck(ctx context.Context, p *Pool, rounds int) {
	for i := 0; i < rounds; i++ {
		c, err := p.Get(ctx)
		if err != nil {
			return
		}
		err = c.Ping()
		p.Put(c)
		if err != nil {
			fmt.Println("health: backend down, closing pool")
			p.Close()
			return
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	pool := NewPool(func(id int) (Conn, error) {
		return &fakeConn{id: id, failAt: 2}, nil
	}, 2)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		healthCheck(ctx, pool, 3)
	}()

	for _, q := range []string{"SELECT 1", "SELECT name FROM users"} {
		c, err := pool.Get(ctx)
		if err != nil {
			fmt.Println("get:", err)
			break
		}
		n, err := c.Query(q)
		fmt.Println("query", c.ID(), n, err)
		pool.Put(c)
	}

	// Shutting down: close the pool, then wait for the health checker.
	if err := pool.Close(); err != nil {
		fmt.Println("close:", err)
	}
	cancel()
	wg.Wait()
}
