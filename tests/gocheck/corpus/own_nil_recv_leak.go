// want: partial-deadlock
// source: written for this corpus
// what: a goroutine receives from a channel field that was never made (nil): it blocks for
//   ever, main returns

package main

import "fmt"

type job struct {
	results chan int
}

func main() {
	j := &job{}
	go func() {
		fmt.Println(<-j.results)
	}()
	fmt.Println("main returns")
}
