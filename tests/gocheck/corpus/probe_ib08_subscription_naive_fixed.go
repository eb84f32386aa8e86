// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Sameer Ajmani's "Advanced Go Concurrency Patterns" talk, the final Subscription loop (select with closing, nil-channel cases, pending queue, async fetch)
// what: the loop goroutine keeps a pending queue and selects on a startFetch timer (nil while a
//   fetch runs or the queue is full), the fetchDone channel (buffered 1), the closing channel and
//   an updates case that is nil while nothing is pending; main reads three items and Close sends
//   an error channel on closing, and the loop answers on it, closes updates and returns.

package main

import (
	"fmt"
	"time"
)

type Item struct{ Title, Channel, GUID string }

type Fetcher interface {
	Fetch() (items []Item, next time.Time, err error)
}

type fakeFetcher struct {
	channel string
	n       int
}

func (f *fakeFetcher) Fetch() (items []Item, next time.Time, err error) {
	time.Sleep(100 * time.Microsecond)
	for i := 0; i < 2; i++ {
		f.n++
		items = append(items, Item{
			Channel: f.channel,
			Title:   fmt.Sprintf("%s %d", f.channel, f.n),
			GUID:    fmt.Sprintf("%s-%d", f.channel, f.n),
		})
	}
	return items, time.Now().Add(time.Millisecond), nil
}

type Subscription interface {
	Updates() <-chan Item
	Close() error
}

type sub struct {
	fetcher Fetcher
	updates chan Item
	closing chan chan error
}

func Subscribe(fetcher Fetcher) Subscription {
	s := &sub{fetcher: fetcher, updates: make(chan Item), closing: make(chan chan error)}
	go s.loop()
	return s
}

func (s *sub) Updates() <-chan Item { return s.updates }

func (s *sub) Close() error {
	errc := make(chan error)
	s.closing <- errc
	return <-errc
}

func (s *sub) loop() {
	const maxPending = 10
	type fetchResult struct {
		fetched []Item
		next    time.Time
		err     error
	}
	var fetchDone chan fetchResult // if non-nil, Fetch is running
	var pending []Item
	var next time.Time
	var err error
	seen := make(map[string]bool)
	for {
		var fetchDelay time.Duration
		if now := time.Now(); next.After(now) {
			fetchDelay = next.Sub(now)
		}
		var startFetch <-chan time.Time
		if fetchDone == nil && len(pending) < maxPending {
			startFetch = time.After(fetchDelay)
		}
		var first Item
		var updates chan Item
		if len(pending) > 0 {
			first = pending[0]
			updates = s.updates // enable send case
		}
		select {
		case <-startFetch:
			fetchDone = make(chan fetchResult, 1)
			go func() {
				fetched, next, err := s.fetcher.Fetch()
				fetchDone <- fetchResult{fetched, next, err}
			}()
		case result := <-fetchDone:
			fetchDone = nil
			fetched := result.fetched
			next, err = result.next, result.err
			if err != nil {
				next = time.Now().Add(10 * time.Millisecond)
				break
			}
			for _, item := range fetched {
				if id := item.GUID; !seen[id] {
					pending = append(pending, item)
					seen[id] = true
				}
			}
		case errc := <-s.closing:
			errc <- err
			close(s.updates)
			return
		case updates <- first:
			pending = pending[1:]
		}
	}
}

func main() {
	sub := Subscribe(&fakeFetcher{channel: "blog.golang.org"})
	for i := 0; i < 3; i++ {
		it := <-sub.Updates()
		fmt.Println(it.Channel, it.Title)
	}
	fmt.Println("closed:", sub.Close())
	time.Sleep(2 * time.Millisecond) // a fetch in flight finishes into its buffered channel
}
