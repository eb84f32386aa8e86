// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Rob Pike's "Go Concurrency Patterns" talk (generator boring, fanIn multiplexing, restoring sequencing with a wait channel in each Message)
// what: two boring generators each send five Messages carrying a shared wait channel and block on
//   it after every send; fanIn forwards both onto one channel (a WaitGroup closer closes it when
//   both generators are done); main reads two messages at a time and releases both speakers, then
//   reads to the end.

package main

import (
	"fmt"
	"sync"
	"time"
)

type Message struct {
	str  string
	wait chan bool
}

func boring(msg string, n int) <-chan Message { // Returns receive-only channel of Messages.
	c := make(chan Message)
	waitForIt := make(chan bool) // Shared between all messages.
	go func() {                  // We launch the goroutine from inside the function.
		defer close(c)
		for i := 0; i < n; i++ {
			c <- Message{fmt.Sprintf("%s: %d", msg, i), waitForIt}
			time.Sleep(time.Duration((i*37)%5) * 100 * time.Microsecond)
			<-waitForIt
		}
	}()
	return c // Return the channel to the caller.
}

func fanIn(inputs ...<-chan Message) <-chan Message {
	c := make(chan Message)
	var wg sync.WaitGroup
	for _, input := range inputs {
		wg.Add(1)
		go func(input <-chan Message) {
			defer wg.Done()
			for m := range input {
				c <- m
			}
		}(input)
	}
	go func() {
		wg.Wait()
		close(c)
	}()
	return c
}

func main() {
	c := fanIn(boring("Joe", 5), boring("Ann", 5))
	for i := 0; i < 5; i++ {
		msg1 := <-c
		fmt.Println(msg1.str)
		msg2 := <-c
		fmt.Println(msg2.str)
		msg1.wait <- true
		msg2.wait <- true
	}
	for range c {
	}
	fmt.Println("You're both boring; I'm leaving.")
}
