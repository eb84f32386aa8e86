// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on generic worker pools (Map[In, Out] with a bounded number of workers)
// what: three workers, six jobs, results gathered through a WaitGroup-closed channel; all
//   channels are closed by their single owners, so every goroutine finishes: ok (a state-space
//   stress case rather than a bug).

package main

import (
	"fmt"
	"sync"
)

type Mapper[In, Out any] struct {
	Workers int
	F       func(In) Out
}

type indexed[T any] struct {
	i int
	v T
}

func (m Mapper[In, Out]) Map(items []In) []Out {
	jobs := make(chan indexed[In])
	res := make(chan indexed[Out])
	var wg sync.WaitGroup
	for range m.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				res <- indexed[Out]{j.i, m.F(j.v)}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i, it := range items {
			jobs <- indexed[In]{i, it}
		}
	}()
	go func() {
		wg.Wait()
		close(res)
	}()
	out := make([]Out, len(items))
	for r := range res {
		out[r.i] = r.v
	}
	return out
}

func main() {
	m := Mapper[int, string]{Workers: 3, F: func(n int) string { return fmt.Sprint(n * n) }}
	fmt.Println(m.Map([]int{1, 2, 3, 4, 5, 6}))
}
