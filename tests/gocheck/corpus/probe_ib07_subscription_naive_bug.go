// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Sameer Ajmani's "Advanced Go Concurrency Patterns" talk, the naive Subscription loop ("Bug 3: loop may block forever on s.updates")
// what: the naive loop fetches two items at a time and sends each with a plain `s.updates <- item`;
//   Close only sets a closed flag. main reads three items and calls Close, so the loop goroutine
//   is blocked for ever sending the fourth item on the unbuffered updates channel, never seeing
//   the flag, and it leaks when main returns.

package main

import (
	"fmt"
	"sync"
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

type naiveSub struct {
	fetcher Fetcher
	updates chan Item
	mu      sync.Mutex // guards closed and err
	closed  bool
	err     error
}

func NaiveSubscribe(fetcher Fetcher) Subscription {
	s := &naiveSub{fetcher: fetcher, updates: make(chan Item)}
	go s.loop()
	return s
}

func (s *naiveSub) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *naiveSub) loop() {
	for {
		if s.isClosed() {
			close(s.updates)
			return
		}
		items, next, err := s.fetcher.Fetch()
		if err != nil {
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			time.Sleep(10 * time.Millisecond)
			continue
		}
		for _, item := range items {
			s.updates <- item
		}
		if now := time.Now(); next.After(now) {
			time.Sleep(next.Sub(now))
		}
	}
}

func (s *naiveSub) Updates() <-chan Item { return s.updates }

func (s *naiveSub) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return s.err
}

func main() {
	sub := NaiveSubscribe(&fakeFetcher{channel: "blog.golang.org"})
	for i := 0; i < 3; i++ {
		it := <-sub.Updates()
		fmt.Println(it.Channel, it.Title)
	}
	fmt.Println("closed:", sub.Close())
}
