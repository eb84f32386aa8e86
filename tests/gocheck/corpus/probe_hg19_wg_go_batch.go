// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on Batch[T] helpers using Go 1.25 sync.WaitGroup.Go
// what: Batch splits items into chunks and runs one wg.Go task per chunk, each sending its sum on
//   an unbuffered channel; the caller stops reading after the first error, so the remaining
//   chunk tasks block on their send for ever (the closer goroutine blocks in wg.Wait too).

package main

import (
	"errors"
	"fmt"
	"sync"
)

type chunkResult struct {
	sum int
	err error
}

func Batch[T any](items []T, size int, f func([]T) (int, error)) <-chan chunkResult {
	out := make(chan chunkResult)
	var wg sync.WaitGroup
	for start := 0; start < len(items); start += size {
		chunk := items[start:min(start+size, len(items))]
		wg.Go(func() {
			s, err := f(chunk)
			out <- chunkResult{s, err}
		})
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func total(xs []int) (int, error) {
	sum := 0
	for r := range Batch(xs, 2, func(c []int) (int, error) {
		s := 0
		for _, v := range c {
			if v < 0 {
				return 0, errors.New("negative value")
			}
			s += v
		}
		return s, nil
	}) {
		if r.err != nil {
			return 0, r.err // BUG: abandons the other chunk tasks
		}
		sum += r.sum
	}
	return sum, nil
}

func main() {
	fmt.Println(total([]int{1, -2, 3, 4, 5}))
}
