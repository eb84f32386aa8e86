// want: ok
// source: written for this corpus
// what: closures capture the request and reply channels and serve two requests

package main

import "fmt"

func main() {
	req := make(chan int)
	rep := make(chan int)
	serve := func() {
		for i := 0; i < 2; i++ {
			rep <- 2 * <-req
		}
	}
	go serve()
	ask := func(v int) int {
		req <- v
		return <-rep
	}
	fmt.Println(ask(1), ask(2))
}
