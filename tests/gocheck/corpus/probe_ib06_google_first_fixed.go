// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Rob Pike's "Go Concurrency Patterns" talk, Google Search 3.0 (First over replicas, with a timeout)
// what: First queries every replica in its own goroutine and returns the first answer; its
//   channel is buffered to len(replicas), so the slower replicas' sends complete and their
//   goroutines end; main waits a little after Google returns, for the slow replicas to finish.

package main

import (
	"fmt"
	"time"
)

type Result string
type Search func(query string) Result

func fakeSearch(kind string, latency time.Duration) Search {
	return func(query string) Result {
		time.Sleep(latency)
		return Result(fmt.Sprintf("%s result for %q in %v\n", kind, query, latency))
	}
}

var (
	Web1   = fakeSearch("web", 1*time.Millisecond)
	Web2   = fakeSearch("web", 4*time.Millisecond)
	Image1 = fakeSearch("image", 2*time.Millisecond)
	Image2 = fakeSearch("image", 5*time.Millisecond)
	Video1 = fakeSearch("video", 1*time.Millisecond)
	Video2 = fakeSearch("video", 6*time.Millisecond)
)

func First(query string, replicas ...Search) Result {
	c := make(chan Result, len(replicas))
	searchReplica := func(i int) { c <- replicas[i](query) }
	for i := range replicas {
		go searchReplica(i)
	}
	return <-c
}

func Google(query string) (results []Result) {
	c := make(chan Result, 3)
	go func() { c <- First(query, Web1, Web2) }()
	go func() { c <- First(query, Image1, Image2) }()
	go func() { c <- First(query, Video1, Video2) }()

	timeout := time.After(500 * time.Millisecond)
	for i := 0; i < 3; i++ {
		select {
		case result := <-c:
			results = append(results, result)
		case <-timeout:
			fmt.Println("timed out")
			return
		}
	}
	return
}

func main() {
	start := time.Now()
	results := Google("golang")
	elapsed := time.Since(start)
	fmt.Println(results)
	fmt.Println(elapsed > 0)
	time.Sleep(10 * time.Millisecond) // the slow replicas answer into the buffer and exit
}
