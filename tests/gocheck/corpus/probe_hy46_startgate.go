// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26, input: ENV USERS="alice,bob,carol,dave"), in the style of a load-test driver that releases all virtual users at once
// what: one goroutine per user in $USERS waits on a start gate (a channel closed by main as a
//   broadcast), does a few requests and reports on an unbuffered stats channel; a closer
//   goroutine closes stats after wg.Wait while main drains it. Correct for any number of
//   users, including none.
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

type stat struct {
	user     string
	requests int
	elapsed  time.Duration
}

type vuser struct {
	name string
	reqs int
}

func (u vuser) run(start <-chan struct{}, stats chan<- stat, wg *sync.WaitGroup) {
	defer wg.Done()
	<-start
	t0 := time.Now()
	for i := 0; i < u.reqs; i++ {
		time.Sleep(100 * time.Microsecond)
	}
	stats <- stat{user: u.name, requests: u.reqs, elapsed: time.Since(t0)}
}

func main() {
	var users []vuser
	for i, n := range strings.Split(os.Getenv("USERS"), ",") {
		if n != "" {
			users = append(users, vuser{name: n, reqs: 1 + i%3})
		}
	}
	start := make(chan struct{})
	stats := make(chan stat)
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Add(1)
		go u.run(start, stats, &wg)
	}
	go func() {
		wg.Wait()
		close(stats)
	}()
	close(start)
	total := 0
	for s := range stats {
		total += s.requests
		fmt.Printf("%s: %d requests in %v\n", s.user, s.requests, s.elapsed.Round(time.Microsecond))
	}
	fmt.Println("total requests:", total)
}
