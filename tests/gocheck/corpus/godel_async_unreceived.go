// want: ok
// source: Godel (ICSE'18) Table 3 program 18 (eventual reception violated), written from the paper's description
// what: a message is sent into a buffered channel and never received. Godel reports this for its
//   eventual-reception property; no goroutine blocks and nothing unsafe happens, so for gocheck's
//   four properties the program is ok.

package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	done := make(chan bool)
	go func() {
		ch <- 42 // never received
		done <- true
	}()
	<-done
	fmt.Println("done")
}
