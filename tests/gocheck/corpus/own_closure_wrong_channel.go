// want: global-deadlock
// source: written for this corpus
// what: the serving closure replies on the request channel it captured instead of the reply
//   channel: it and main both end up waiting

package main

import "fmt"

func main() {
	req := make(chan int)
	rep := make(chan int)
	serve := func() {
		v := <-req
		req <- 2 * v
	}
	go serve()
	req <- 1
	fmt.Println(<-rep)
}
