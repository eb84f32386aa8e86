// want: partial-deadlock
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: (consul-style) a lock session arms time.AfterFunc to report expiry on an unbuffered
//   channel; main renews the session (Stop) but ignores Stop's result: when the timer already
//   fired, its callback goroutine blocks for ever on the send nobody receives (a leak)

package main

import (
	"fmt"
	"time"
)

type session struct {
	expired chan string
	timer   *time.Timer
}

func newSession(id string) *session {
	s := &session{expired: make(chan string)}
	s.timer = time.AfterFunc(time.Millisecond, func() {
		s.expired <- id // BUG: blocks if nobody is listening any more
	})
	return s
}

func main() {
	s := newSession("s1")
	s.timer.Stop()
	fmt.Println("renewed")
}
