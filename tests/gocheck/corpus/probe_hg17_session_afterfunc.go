// want: partial-deadlock
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on session managers using time.AfterFunc(d, s.expire) with a method value
// what: expire (run by the timer as a method value) reports on the unbuffered s.events channel;
//   Close stops the timer but when Stop returns false (the timer already fired) nobody ever
//   receives from events, so the timer goroutine stays blocked after main returns.

package main

import (
	"fmt"
	"sync"
	"time"
)

type Session struct {
	mu      sync.Mutex
	id      string
	expired bool
	timer   *time.Timer
	events  chan string
}

func NewSession(id string, ttl time.Duration) *Session {
	s := &Session{id: id, events: make(chan string)}
	s.timer = time.AfterFunc(ttl, s.expire)
	return s
}

func (s *Session) expire() {
	s.mu.Lock()
	s.expired = true
	s.mu.Unlock()
	s.events <- "expired:" + s.id
}

func (s *Session) Close() bool {
	return s.timer.Stop() // BUG: if the timer fired, expire is blocked sending on events
}

func main() {
	s := NewSession("u1", time.Microsecond)
	time.Sleep(2 * time.Millisecond)
	fmt.Println("stopped before expiry:", s.Close())
}
