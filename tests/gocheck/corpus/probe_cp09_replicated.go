// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: replicated requests, first response wins, with a time.After timeout; the result channel is
//   unbuffered, so the replicas that lose the race (or all of them, after a timeout) block on their send for ever.

package main

import (
	"errors"
	"fmt"
	"time"
)

type result string

func search(replica int, query string) result {
	time.Sleep(time.Duration(replica) * time.Millisecond)
	return result(fmt.Sprintf("replica %d: results for %q", replica, query))
}

func first(query string, replicas ...int) (result, error) {
	c := make(chan result) // BUG: needs a buffer of len(replicas)
	for _, r := range replicas {
		go func() { c <- search(r, query) }()
	}
	select {
	case res := <-c:
		return res, nil
	case <-time.After(50 * time.Millisecond):
		return "", errors.New("timed out")
	}
}

func main() {
	res, err := first("golang", 1, 2, 3)
	fmt.Println(res, err)
}
