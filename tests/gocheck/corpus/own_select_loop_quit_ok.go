// want: ok
// source: written for this corpus
// what: a for-select loop serves requests until main closes quit, then acknowledges

package main

import "fmt"

func server(req <-chan int, quit <-chan struct{}, ack chan<- bool) {
	for {
		select {
		case r := <-req:
			fmt.Println("request", r)
		case <-quit:
			ack <- true
			return
		}
	}
}

func main() {
	req := make(chan int)
	quit := make(chan struct{})
	ack := make(chan bool)
	go server(req, quit, ack)
	for i := 0; i < 3; i++ {
		req <- i
	}
	close(quit)
	<-ack
}
