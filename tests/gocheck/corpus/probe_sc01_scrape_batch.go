// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of service code (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a prometheus-style scrape pool: one ticker-driven scrape loop per target appends each
//   scraped batch to the storage goroutine sample by sample, without watching ctx; the storage
//   cancels after 10 samples, so a loop caught mid-batch blocks for ever on its send, and the
//   pool's stop gives up waiting after a time.After timeout and main returns (a leak)

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"
	"time"
)

type sample struct {
	target string
	series int
	value  int64
}

type scrapeLoop struct {
	target   string
	interval time.Duration
	appendCh chan<- sample
	scrapes  int64
}

func (sl *scrapeLoop) scrape() []sample {
	sl.scrapes++
	batch := make([]sample, 4)
	for i := range batch {
		batch[i] = sample{target: sl.target, series: i, value: sl.scrapes}
	}
	return batch
}

// run is started as a method value, one per target.
func (sl *scrapeLoop) run(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	t := time.NewTicker(sl.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, s := range sl.scrape() {
			sl.appendCh <- s // BUG: no case <-ctx.Done() once the storage has stopped
		}
	}
}

type storage struct {
	samples chan sample
	latest  map[string]int64
	done    chan struct{}
}

func (st *storage) run(ctx context.Context, limit int, cancel context.CancelFunc) {
	defer close(st.done)
	n := 0
	for {
		select {
		case <-ctx.Done():
			return
		case s := <-st.samples:
			st.latest[s.target] = s.value
			if n++; n == limit {
				cancel() // head block full: stop scraping
				return
			}
		}
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()

	st := &storage{samples: make(chan sample), latest: map[string]int64{}, done: make(chan struct{})}
	go st.run(ctx, 10, cancel)

	var wg sync.WaitGroup
	for _, target := range []string{"node", "api", "db"} {
		sl := &scrapeLoop{target: target, interval: time.Millisecond, appendCh: st.samples}
		wg.Add(1)
		go sl.run(ctx, &wg)
	}
	<-st.done

	stopped := make(chan struct{})
	go func() {
		wg.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(200 * time.Millisecond):
		fmt.Println("scrape pool: timed out waiting for scrape loops")
	}

	targets := make([]string, 0, len(st.latest))
	for t := range st.latest {
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i] < targets[j] })
	fmt.Println("scraped:", targets, ctx.Err())
}
