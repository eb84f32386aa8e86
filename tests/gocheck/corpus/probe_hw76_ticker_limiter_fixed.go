// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a token-bucket refill goroutine driven by time.Ticker
// what: the refill loop selects on the ticker and a done channel; Stop closes done and waits
//   for the loop to exit, then stops the ticker
package main

import (
	"fmt"
	"time"
)

type Limiter struct {
	tokens chan struct{}
	ticker *time.Ticker
	done   chan struct{}
	exited chan struct{}
}

func NewLimiter(burst int, every time.Duration) *Limiter {
	l := &Limiter{
		tokens: make(chan struct{}, burst),
		ticker: time.NewTicker(every),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	for i := 0; i < burst; i++ {
		l.tokens <- struct{}{}
	}
	go func() {
		defer close(l.exited)
		for {
			select {
			case <-l.ticker.C:
				select {
				case l.tokens <- struct{}{}:
				default:
				}
			case <-l.done:
				return
			}
		}
	}()
	return l
}

func (l *Limiter) Wait() { <-l.tokens }

func (l *Limiter) Stop() {
	close(l.done)
	<-l.exited
	l.ticker.Stop()
}

func main() {
	l := NewLimiter(2, time.Millisecond)
	for i := 0; i < 3; i++ {
		l.Wait()
		fmt.Println("request", i)
	}
	l.Stop()
}
