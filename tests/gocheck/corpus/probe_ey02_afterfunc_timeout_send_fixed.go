// want: ok
// source: written for chanfuzz as a held-out probe in GoBench goker's style (run and confirmed by its author; see docs/gocheck-report.md)
// what: fixed version of ey02: the expiry channel has capacity 1, so a callback that already
//   fired never blocks

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
	s := &session{expired: make(chan string, 1)}
	s.timer = time.AfterFunc(time.Millisecond, func() {
		s.expired <- id
	})
	return s
}

func main() {
	s := newSession("s1")
	s.timer.Stop()
	fmt.Println("renewed")
}
