// want: global-deadlock
// source: written for this corpus
// what: main receives on an unbuffered channel that no goroutine ever sends on

package main

import "fmt"

func main() {
	ch := make(chan int)
	done := make(chan bool)
	go func() {
		fmt.Println("helper runs")
		done <- true
	}()
	<-done
	fmt.Println(<-ch)
}
