// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of errgroup.WithContext written with context.WithCancelCause
// what: workers send results while watching ctx; the first failure cancels with its cause; the
//   collector closes results after wg.Wait and main reads context.Cause. Every goroutine ends
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

func fetch(ctx context.Context, shard int) (int, error) {
	if shard == 2 {
		return 0, errors.New("shard 2 unavailable")
	}
	return shard * 10, nil
}

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	results := make(chan int)
	var wg sync.WaitGroup
	for shard := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := fetch(ctx, shard)
			if err != nil {
				cancel(err)
				return
			}
			select {
			case results <- v:
			case <-ctx.Done():
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	sum := 0
	for v := range results {
		sum += v
	}
	fmt.Println("sum", sum, "cause:", context.Cause(ctx))
}
