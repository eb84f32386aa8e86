// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of Rob Pike's "Go Concurrency Patterns" talk (timeout for the whole conversation with time.After, a quit channel, and "receive on quit channel" for a cleanup round-trip)
// what: boring talks for ever in a select between sending on c and receiving on quit; on quit it
//   cleans up and answers on the same quit channel. Joe is listened to for a few messages, Ann
//   until a 3 ms conversation timeout fires; each is then told to quit and main waits for the reply.

package main

import (
	"fmt"
	"time"
)

func cleanup() { time.Sleep(100 * time.Microsecond) }

func boring(msg string, quit chan string) <-chan string {
	c := make(chan string)
	go func() {
		for i := 0; ; i++ {
			select {
			case c <- fmt.Sprintf("%s: %d", msg, i):
				time.Sleep(time.Duration(i%4) * 200 * time.Microsecond)
			case <-quit:
				cleanup()
				quit <- "See you!"
				return
			}
		}
	}()
	return c
}

func main() {
	quit := make(chan string)
	c := boring("Joe", quit)
	for i := 7; i >= 0; i-- {
		fmt.Println(<-c)
	}
	quit <- "Bye!"
	fmt.Printf("Joe says: %q\n", <-quit)

	quit2 := make(chan string)
	c2 := boring("Ann", quit2)
	timeout := time.After(3 * time.Millisecond)
	for talking := true; talking; {
		select {
		case s := <-c2:
			fmt.Println(s)
		case <-timeout:
			fmt.Println("You talk too much.")
			talking = false
		}
	}
	quit2 <- "Bye!"
	fmt.Printf("Ann says: %q\n", <-quit2)
}
