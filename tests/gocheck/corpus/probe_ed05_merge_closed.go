// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: A select loop merges two producers and counts closed channels to know when both are done, but a closed
//   channel stays ready, so b's close can be counted twice; main stops early and a's producer leaks on its send.

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
	sum, closed := 0, 0
	for closed < 2 {
		select {
		case v, ok := <-a:
			if !ok {
				closed++
				continue
			}
			sum += v
		case v, ok := <-b:
			if !ok {
				closed++
				continue
			}
			sum += v
		}
	}
	fmt.Println("sum", sum)
}
