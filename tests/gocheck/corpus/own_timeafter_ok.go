// want: ok
// source: written for this corpus
// what: main waits for a result or a timeout; the result channel is buffered so a late worker
//   does not block

package main

import (
	"fmt"
	"time"
)

func main() {
	result := make(chan string, 1)
	go func() {
		result <- "done"
	}()
	select {
	case r := <-result:
		fmt.Println(r)
	case <-time.After(time.Second):
		fmt.Println("timeout")
	}
}
