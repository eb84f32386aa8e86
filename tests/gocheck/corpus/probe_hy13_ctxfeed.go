// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV URLS="u01 u02 u03 u04 u05 u06 u07 u08 u09 u10 u11 u12 u13 u14 u15 u16 u17 u18 u19 u20 u21 u22 u23 u24 u25 u26 u27 u28 u29 u30 u31 u32"), in the style of a crawler with a context deadline and two fetch workers
// what: the two workers stop when the 30 ms context deadline expires, but main feeds the jobs
//   channel with a plain send (no select on ctx.Done()); if jobs remain after the deadline,
//   main blocks for ever on the send with no receiver left. Each job takes 5 ms, so the bug
//   needs roughly more than 12 URLs.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type crawler struct {
	fetched atomic.Int64
}

func (c *crawler) worker(ctx context.Context, jobs <-chan string, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case u, ok := <-jobs:
			if !ok {
				return
			}
			time.Sleep(5 * time.Millisecond)
			_ = u
			c.fetched.Add(1)
		}
	}
}

func main() {
	urls := strings.Fields(os.Getenv("URLS"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	c := &crawler{}
	jobs := make(chan string)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go c.worker(ctx, jobs, &wg)
	}
	for _, u := range urls {
		jobs <- u
	}
	close(jobs)
	wg.Wait()
	fmt.Printf("fetched %d of %d urls\n", c.fetched.Load(), len(urls))
}
