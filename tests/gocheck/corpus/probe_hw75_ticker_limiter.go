// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a token-bucket refill goroutine driven by time.Ticker
// what: Stop() stops the ticker, assuming that ends the refill loop; but Ticker.Stop does not
//   close C, so the refill goroutine ranging over ticker.C stays blocked for ever (a leak)
package main

import (
	"fmt"
	"time"
)

type Limiter struct {
	tokens chan struct{}
	ticker *time.Ticker
}

func NewLimiter(burst int, every time.Duration) *Limiter {
	l := &Limiter{tokens: make(chan struct{}, burst), ticker: time.NewTicker(every)}
	for i := 0; i < burst; i++ {
		l.tokens <- struct{}{}
	}
	go func() {
		for range l.ticker.C { // BUG: never ends, Stop does not close C
			select {
			case l.tokens <- struct{}{}:
			default:
			}
		}
	}()
	return l
}

func (l *Limiter) Wait() { <-l.tokens }

func (l *Limiter) Stop() { l.ticker.Stop() }

func main() {
	l := NewLimiter(2, time.Millisecond)
	for i := 0; i < 3; i++ {
		l.Wait()
		fmt.Println("request", i)
	}
	l.Stop()
}
