// want: partial-deadlock
// source: a retry helper with a per-attempt timeout, as in many Go client libraries, written for this set
// what: each attempt runs in a goroutine that reports on an unbuffered channel; when the
//   attempt times out Retry moves on and the abandoned attempt blocks on its send.

package retry

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

type Op func(ctx context.Context) error

func Retry(ctx context.Context, attempts int, perAttempt time.Duration, op Op) error {
	var last error
	for i := 0; i < attempts; i++ {
		actx, cancel := context.WithTimeout(ctx, perAttempt)
		ch := make(chan error)
		go func() { ch <- op(actx) }()
		select {
		case err := <-ch:
			cancel()
			if err == nil {
				return nil
			}
			last = err
		case <-actx.Done():
			cancel()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			last = actx.Err()
		}
	}
	return last
}

func TestRetry(t *testing.T) {
	errFlaky := errors.New("flaky")
	tests := []struct {
		name    string
		op      func(calls *atomic.Int32) Op
		wantErr bool
	}{
		{"ok first", func(*atomic.Int32) Op {
			return func(context.Context) error { return nil }
		}, false},
		{"fails then ok", func(c *atomic.Int32) Op {
			return func(context.Context) error {
				if c.Add(1) == 1 {
					return errFlaky
				}
				return nil
			}
		}, false},
		{"first attempt hangs", func(c *atomic.Int32) Op {
			return func(ctx context.Context) error {
				if c.Add(1) == 1 {
					<-ctx.Done()
					return ctx.Err()
				}
				return nil
			}
		}, false},
		{"always fails", func(*atomic.Int32) Op {
			return func(context.Context) error { return errFlaky }
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err := Retry(ctx, 3, 20*time.Millisecond, tc.op(&calls))
			if (err != nil) != tc.wantErr {
				t.Fatalf("Retry() error = %v, wantErr %v", err, tc.wantErr)
			}
		})
	}
}
