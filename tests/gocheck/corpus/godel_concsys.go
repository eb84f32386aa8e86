// want: partial-deadlock
// source: Godel (ICSE'18) Table 3 "concsys" (the Go Concurrency Patterns search example, dingo-hunter examples/popl17/concsys); rewritten
// what: three searches send their results on an unbuffered channel; main takes the first result
//   (or times out) and returns: the two other senders stay blocked for ever (a leak)

package main

import (
	"fmt"
	"time"
)

func search(kind string, c chan<- string) {
	time.Sleep(time.Millisecond)
	c <- kind + " result"
}

func main() {
	c := make(chan string)
	go search("web", c)
	go search("image", c)
	go search("video", c)
	select {
	case r := <-c:
		fmt.Println(r)
	case <-time.After(2 * time.Second):
		fmt.Println("timed out")
	}
}
