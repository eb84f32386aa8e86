// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of the Go blog's pipelines-and-cancellation pattern (fan-out/fan-in with a done channel)
// what: a generator feeds three scoring workers whose outputs are merged; main keeps the first few
//   hits, closes done, and drains the merged channel so every stage sees done or finishes and all goroutines exit.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type Doc struct {
	ID   int
	Text string
}

type Hit struct {
	DocID int
	Score int
}

func generate(done <-chan struct{}, docs []Doc) <-chan Doc {
	out := make(chan Doc)
	go func() {
		defer close(out)
		for _, d := range docs {
			select {
			case out <- d:
			case <-done:
				return
			}
		}
	}()
	return out
}

func score(done <-chan struct{}, in <-chan Doc, terms []string) <-chan Hit {
	out := make(chan Hit)
	go func() {
		defer close(out)
		for d := range in {
			s := 0
			for _, t := range terms {
				s += strings.Count(strings.ToLower(d.Text), t)
			}
			if s == 0 {
				continue
			}
			select {
			case out <- Hit{DocID: d.ID, Score: s}:
			case <-done:
				return
			}
		}
	}()
	return out
}

func merge(done <-chan struct{}, cs ...<-chan Hit) <-chan Hit {
	out := make(chan Hit)
	var wg sync.WaitGroup
	wg.Add(len(cs))
	for _, c := range cs {
		go func(c <-chan Hit) {
			defer wg.Done()
			for h := range c {
				select {
				case out <- h:
				case <-done:
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

func main() {
	docs := []Doc{
		{1, "Deadlock detection in Go"}, {2, "Channels and goroutines"},
		{3, "A goroutine leak story"}, {4, "Cooking pasta"},
		{5, "Go channel axioms"}, {6, "Select with timeouts in Go"}, {7, "Mutex contention"},
	}
	terms := []string{"go", "channel"}
	done := make(chan struct{})
	src := generate(done, docs)
	workers := make([]<-chan Hit, 3)
	for i := range workers {
		workers[i] = score(done, src, terms)
	}
	merged := merge(done, workers...)

	var top []Hit
	for h := range merged {
		top = append(top, h)
		if len(top) == 3 {
			break
		}
	}
	close(done)
	for range merged {
		// drain so the merge goroutines observe done and exit
	}
	sort.Slice(top, func(i, j int) bool { return top[i].DocID < top[j].DocID })
	fmt.Println("first hits:", len(top))
}
