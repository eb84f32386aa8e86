// want: partial-deadlock
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: ping-pong over a shared table channel as in the "Advanced Go Concurrency Patterns" talk; main
//   serves the ball, later takes it off the table and returns, leaving both players blocked receiving from the table.

package main

import (
	"fmt"
	"time"
)

type ball struct{ hits int }

func player(name string, table chan *ball) {
	for {
		b := <-table // BUG: no way to stop; blocks for ever once main keeps the ball
		b.hits++
		fmt.Println(name, b.hits)
		time.Sleep(time.Millisecond)
		table <- b
	}
}

func main() {
	table := make(chan *ball)
	go player("ping", table)
	go player("pong", table)
	table <- new(ball)
	time.Sleep(5 * time.Millisecond)
	b := <-table
	fmt.Println("game over after", b.hits, "hits")
}
