// want: partial-deadlock
// source: written for this corpus
// what: main gives up after a 1 ms timeout; the slower worker then blocks for ever on its send
//   to the unbuffered result channel (interleaving-dependent)

package main

import (
	"fmt"
	"time"
)

func main() {
	result := make(chan string)
	go func() {
		time.Sleep(3 * time.Millisecond)
		result <- "done"
	}()
	select {
	case r := <-result:
		fmt.Println(r)
	case <-time.After(time.Millisecond):
		fmt.Println("timeout")
	}
}
