// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a loop with a labeled break out of select, a method value started as a goroutine and a done channel

package main

import "fmt"

type counter struct {
	in   chan int
	done chan int
}

func (c *counter) loop() {
	n := 0
loop:
	for {
		select {
		case v, ok := <-c.in:
			if !ok {
				break loop
			}
			n += v
		}
	}
	c.done <- n
}

func main() {
	c := &counter{in: make(chan int), done: make(chan int)}
	f := c.loop
	go f()
	for i := 1; i <= 3; i++ {
		c.in <- i
	}
	close(c.in)
	fmt.Println(<-c.done)
}
