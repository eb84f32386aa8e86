// want: partial-deadlock
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a server goroutine answers requests on a channel of reply channels; the client abandons a request after a timeout and the server blocks replying on the unbuffered reply channel

package main

import (
	"fmt"
	"time"
)

type req struct {
	key   string
	reply chan string
}

func server(reqs <-chan req) {
	for r := range reqs {
		time.Sleep(time.Millisecond)
		r.reply <- "v:" + r.key
	}
}

func main() {
	reqs := make(chan req)
	go server(reqs)
	r := req{"a", make(chan string)}
	reqs <- r
	select {
	case v := <-r.reply:
		fmt.Println(v)
	case <-time.After(500 * time.Microsecond):
		fmt.Println("timeout")
	}
	close(reqs)
}
