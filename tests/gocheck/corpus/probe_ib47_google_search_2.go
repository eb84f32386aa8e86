// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Rob Pike's "Go Concurrency Patterns" talk (Google Search 1.0 sequential, 2.0 fan-in, 2.1 with a timeout)
// what: fake Web, Image and Video searches sleep a fixed latency; Google 1.0 calls them in turn,
//   2.0 starts a goroutine per search and receives all three results, 2.1 also selects on a
//   timeout of 50 ms and gives up on the rest; its result channel is buffered for three so a
//   late search never blocks, and main waits a little for the late ones to finish.

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
		return Result(fmt.Sprintf("%s result for %q\n", kind, query))
	}
}

var (
	Web   = fakeSearch("web", 1*time.Millisecond)
	Image = fakeSearch("image", 2*time.Millisecond)
	Video = fakeSearch("video", 3*time.Millisecond)
	Slow  = fakeSearch("video", 60*time.Millisecond)
)

func Google10(query string) (results []Result) {
	results = append(results, Web(query))
	results = append(results, Image(query))
	results = append(results, Video(query))
	return
}

func Google20(query string) (results []Result) {
	c := make(chan Result)
	go func() { c <- Web(query) }()
	go func() { c <- Image(query) }()
	go func() { c <- Video(query) }()

	for i := 0; i < 3; i++ {
		result := <-c
		results = append(results, result)
	}
	return
}

func Google21(query string, video Search) (results []Result) {
	c := make(chan Result, 3)
	go func() { c <- Web(query) }()
	go func() { c <- Image(query) }()
	go func() { c <- video(query) }()

	timeout := time.After(50 * time.Millisecond)
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
	fmt.Println(len(Google10("golang")))
	fmt.Println(len(Google20("golang")))
	fmt.Println(len(Google21("golang", Video)))
	fmt.Println(len(Google21("golang", Slow)) <= 3)
	time.Sleep(15 * time.Millisecond) // the slow search finishes into the buffer
}
