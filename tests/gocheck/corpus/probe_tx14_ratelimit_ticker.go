// want: partial-deadlock
// source: a token-bucket rate limiter refilled from a time.Ticker, written for this set
// what: Stop stops the ticker, but Ticker.Stop does not close its channel, so the
//   refill goroutine ranging over ticker.C stays blocked for ever.

package ratelimit

import (
	"context"
	"testing"
	"time"
)

type Limiter struct {
	tokens chan struct{}
	ticker *time.Ticker
}

func New(burst int, every time.Duration) *Limiter {
	l := &Limiter{tokens: make(chan struct{}, burst), ticker: time.NewTicker(every)}
	for i := 0; i < burst; i++ {
		l.tokens <- struct{}{}
	}
	go l.refill()
	return l
}

func (l *Limiter) refill() {
	for range l.ticker.C {
		select {
		case l.tokens <- struct{}{}:
		default:
		}
	}
}

// Wait blocks until a token is available or ctx is done.
func (l *Limiter) Wait(ctx context.Context) error {
	select {
	case <-l.tokens:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Limiter) Stop() { l.ticker.Stop() }

func TestLimiter(t *testing.T) {
	tests := []struct {
		name  string
		burst int
		take  int
	}{
		{"within burst", 3, 3},
		{"beyond burst", 1, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := New(tc.burst, time.Millisecond)
			t.Cleanup(l.Stop)
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
			defer cancel()
			for i := 0; i < tc.take; i++ {
				if err := l.Wait(ctx); err != nil {
					t.Fatalf("Wait #%d: %v", i, err)
				}
			}
		})
	}
}
