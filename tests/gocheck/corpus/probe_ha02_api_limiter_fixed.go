// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a client-go-like REST client with a token-bucket rate limiter
// what: an unlimited client keeps a nil *Limiter and Wait/Stop handle the nil receiver, so requests
//   of the QPS-0 client pass straight through instead of receiving from a nil channel.
package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

type Limiter struct {
	tokens chan struct{}
	stop   chan struct{}
	wg     sync.WaitGroup
}

func NewLimiter(burst int, every time.Duration) *Limiter {
	l := &Limiter{tokens: make(chan struct{}, burst), stop: make(chan struct{})}
	for i := 0; i < burst; i++ {
		l.tokens <- struct{}{}
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				select {
				case l.tokens <- struct{}{}:
				default:
				}
			case <-l.stop:
				return
			}
		}
	}()
	return l
}

// Wait takes a token; a nil Limiter never throttles.
func (l *Limiter) Wait(ctx context.Context) error {
	if l == nil {
		return ctx.Err()
	}
	select {
	case <-l.tokens:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Limiter) Stop() {
	if l == nil {
		return
	}
	close(l.stop)
	l.wg.Wait()
}

type Options struct{ QPS, Burst int }

type Client struct {
	name    string
	limiter *Limiter
	mu      sync.Mutex
	calls   map[string]int
}

func NewClient(name string, o Options) *Client {
	c := &Client{name: name, calls: make(map[string]int)}
	if o.QPS > 0 {
		c.limiter = NewLimiter(o.Burst, time.Second/time.Duration(o.QPS))
	}
	return c
}

func (c *Client) Get(ctx context.Context, path string) error {
	if err := c.limiter.Wait(ctx); err != nil {
		return fmt.Errorf("%s: rate limiter: %w", c.name, err)
	}
	c.mu.Lock()
	c.calls[path]++
	c.mu.Unlock()
	return nil
}

func fanOut(ctx context.Context, c *Client, paths []string) {
	var wg sync.WaitGroup
	for _, p := range paths {
		wg.Add(1)
		go func(p string) {
			defer wg.Done()
			if err := c.Get(ctx, p); err != nil {
				fmt.Println(err)
			}
		}(p)
	}
	wg.Wait()
}

func main() {
	ctx := context.Background()
	throttled := NewClient("kubelet", Options{QPS: 500, Burst: 4})
	fanOut(ctx, throttled, []string{"/api/v1/nodes", "/api/v1/pods", "/api/v1/events"})
	throttled.limiter.Stop()

	admin := NewClient("admin", Options{})
	fanOut(ctx, admin, []string{"/api/v1/namespaces", "/apis/apps/v1/deployments"})
	admin.limiter.Stop()
	fmt.Println(len(throttled.calls), len(admin.calls))
}
