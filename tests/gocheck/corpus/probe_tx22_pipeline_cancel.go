// want: partial-deadlock
// source: the fan-out/fan-in pipeline with cancellation from the Go blog "Pipelines and cancellation", written for this set
// what: the workers and the merger honour ctx, but the generator sends without a
//   select, so after the consumer cancels it stays blocked on its send.

package pipeline

import (
	"context"
	"sync"
	"testing"
)

func gen(ctx context.Context, nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			out <- n
		}
	}()
	return out
}

func square(ctx context.Context, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			select {
			case out <- n * n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func merge(ctx context.Context, cs ...<-chan int) <-chan int {
	var wg sync.WaitGroup
	out := make(chan int)
	wg.Add(len(cs))
	for _, c := range cs {
		go func(c <-chan int) {
			defer wg.Done()
			for v := range c {
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
			}
		}(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func SumSquares(ctx context.Context, workers int, nums ...int) <-chan int {
	src := gen(ctx, nums...)
	cs := make([]<-chan int, workers)
	for i := range cs {
		cs[i] = square(ctx, src)
	}
	return merge(ctx, cs...)
}

func TestPipeline(t *testing.T) {
	tests := []struct {
		name    string
		workers int
		take    int
	}{
		{"all", 2, 6},
		{"first two", 2, 2},
		{"first one", 3, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			out := SumSquares(ctx, tc.workers, 1, 2, 3, 4, 5, 6)
			seen := 0
			for v := range out {
				if v < 1 || v > 36 {
					t.Errorf("unexpected value %d", v)
				}
				seen++
				if seen == tc.take {
					break
				}
			}
			cancel()
			for range out {
			}
			if seen != tc.take {
				t.Fatalf("took %d values, want %d", seen, tc.take)
			}
		})
	}
}
