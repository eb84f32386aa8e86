// want: ok
// source: the fix of Godel (ICSE'18) Table 3 "concsys" (Go Concurrency Patterns search), written for this corpus
// what: as godel_concsys, but the results channel has room for all three results, so the senders
//   that lose the race do not block

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
	c := make(chan string, 3)
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
