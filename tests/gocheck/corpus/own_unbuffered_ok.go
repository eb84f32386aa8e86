// want: ok
// source: written for this corpus
// what: a goroutine sends one value on an unbuffered channel and main receives it

package main

import "fmt"

func main() {
	ch := make(chan int)
	go func() { ch <- 1 }()
	fmt.Println(<-ch)
}
