// want: ok
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: A select loop merges two producers and sets a channel to nil once it is closed, which disables its case;
//   a labelled break leaves the loop when both are nil, so every value is received and both producers finish.

package main

import "fmt"

func produce(out chan<- int, vals ...int) {
	for _, v := range vals {
		out <- v
	}
	close(out)
}

func main() {
	a := make(chan int)
	b := make(chan int)
	go produce(a, 1, 2)
	go produce(b, 10)
	sum := 0
loop:
	for {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				if b == nil {
					break loop
				}
				continue loop
			}
			sum += v
		case v, ok := <-b:
			if !ok {
				b = nil
				if a == nil {
					break loop
				}
				continue loop
			}
			sum += v
		}
	}
	fmt.Println("sum", sum)
}
