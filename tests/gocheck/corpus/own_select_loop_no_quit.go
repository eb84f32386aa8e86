// want: global-deadlock
// source: written for this corpus
// what: the for-select server has no way to stop; main waits for its acknowledgement, which
//   it never sends

package main

import "fmt"

func server(req <-chan int, ack chan<- bool) {
	for {
		select {
		case r := <-req:
			fmt.Println("request", r)
		}
	}
	ack <- true
}

func main() {
	req := make(chan int)
	ack := make(chan bool)
	go server(req, ack)
	for i := 0; i < 3; i++ {
		req <- i
	}
	<-ack
}
