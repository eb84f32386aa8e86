// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26 by tests/gocheck/confirm.py --dir, golang.org/x/sync taken from the module cache; see docs/gocheck-report.md)
// what: errgroup with context; workers send results selecting on ctx.Done, the collector drains until the group is done

package main

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sync/errgroup"
)

func fetch(ctx context.Context, i int) (int, error) {
	if i == 3 {
		return 0, errors.New("boom")
	}
	return i * i, nil
}

func main() {
	g, ctx := errgroup.WithContext(context.Background())
	results := make(chan int)
	for i := 0; i < 5; i++ {
		g.Go(func() error {
			v, err := fetch(ctx, i)
			if err != nil {
				return err
			}
			select {
			case results <- v:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}
	go func() {
		g.Wait()
		close(results)
	}()
	sum := 0
	for v := range results {
		sum += v
	}
	fmt.Println(sum, g.Wait())
}
