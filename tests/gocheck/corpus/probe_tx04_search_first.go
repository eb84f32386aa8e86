// want: partial-deadlock
// source: the "first result wins" replicated search from the Go concurrency talks, written for this set
// what: First returns as soon as one replica answers, but the other replicas send on an
//   unbuffered channel nobody reads any more, so they leak.

package search

import (
	"context"
	"errors"
	"testing"
	"time"
)

type Replica func(ctx context.Context, q string) string

func First(ctx context.Context, q string, replicas ...Replica) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	results := make(chan string)
	for _, r := range replicas {
		go func(r Replica) {
			results <- r(ctx, q)
		}(r)
	}
	select {
	case res := <-results:
		return res, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func fixed(name string) Replica {
	return func(ctx context.Context, q string) string { return name + ":" + q }
}

func TestFirst(t *testing.T) {
	tests := []struct {
		name     string
		replicas []Replica
	}{
		{"single", []Replica{fixed("a")}},
		{"three", []Replica{fixed("a"), fixed("b"), fixed("c")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Second)
			defer cancel()
			got, err := First(ctx, "go", tc.replicas...)
			if err != nil {
				t.Fatalf("First: %v", err)
			}
			if len(got) < 3 || got[len(got)-2:] != "go" {
				t.Errorf("got %q", got)
			}
		})
	}
}

func TestFirstCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	slow := func(ctx context.Context, q string) string {
		<-ctx.Done()
		return "late"
	}
	if _, err := First(ctx, "go", slow); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
}
