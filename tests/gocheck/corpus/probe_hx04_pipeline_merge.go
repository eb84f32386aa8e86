// want: ok
// source: written for chanfuzz by gocheck's author (2026-12-05; confirmed with Go 1.26), not held out, in the style of the Go blog's pipeline: gen, two parallel stages and merge, over os.Args
// what: merge adds len(cs) to its WaitGroup, one output goroutine per channel; the list from
//   os.Args has a length the checker cannot tell
package main

import (
	"fmt"
	"os"
	"sync"
)

func gen(nums ...string) <-chan string {
	out := make(chan string)
	go func() {
		for _, n := range nums {
			out <- n
		}
		close(out)
	}()
	return out
}

func upper(in <-chan string) <-chan int {
	out := make(chan int)
	go func() {
		for n := range in {
			out <- len(n)
		}
		close(out)
	}()
	return out
}

func merge(cs ...<-chan int) <-chan int {
	var wg sync.WaitGroup
	out := make(chan int)
	output := func(c <-chan int) {
		for n := range c {
			out <- n
		}
		wg.Done()
	}
	wg.Add(len(cs))
	for _, c := range cs {
		go output(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func main() {
	in := gen(os.Args[1:]...)
	c1 := upper(in)
	c2 := upper(in)
	for n := range merge(c1, c2) {
		fmt.Println(n)
	}
}
