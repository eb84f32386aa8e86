// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of Go by Example "Range over Channels" with a map of commands
// what: main sends every configured command to a worker over an unbuffered channel, iterating a map; the
//   worker returns as soon as it sees "quit", so unless "quit" happens to come last in the (random) map
//   order, main blocks on the next send while the worker is gone.

package main

import "fmt"

func main() {
	commands := map[string]int{
		"alpha": 1, "bravo": 2, "charlie": 3, "delta": 4, "echo": 5, "quit": 0,
	}
	cmds := make(chan string)
	done := make(chan int)
	go func() {
		total := 0
		for c := range cmds {
			if c == "quit" {
				break
			}
			total += commands[c]
		}
		done <- total
	}()
	for name := range commands {
		cmds <- name
	}
	close(cmds)
	fmt.Println("total", <-done)
}
