// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a CLI/daemon command table (map[string]handler) dispatched concurrently
// what: the dispatcher goroutine looks each requested command up in the table; for an unknown
//   command it logs and `continue`s without sending a reply, while main waits for one reply
//   per request, so main blocks for ever after the dispatcher has finished
package main

import (
	"fmt"
	"strings"
)

type request struct {
	name  string
	args  []string
	reply chan string
}

func dispatch(table map[string]func([]string) string, reqs <-chan request) {
	for r := range reqs {
		h, ok := table[r.name]
		if !ok {
			fmt.Println("unknown command", r.name)
			continue // BUG: r.reply never answered
		}
		r.reply <- h(r.args)
	}
}

func main() {
	table := map[string]func([]string) string{
		"join": func(a []string) string { return strings.Join(a, ",") },
	}
	reqs := make(chan request)
	go dispatch(table, reqs)
	for _, line := range []string{"join a b", "frob x"} {
		f := strings.Fields(line)
		r := request{name: f[0], args: f[1:], reply: make(chan string)}
		reqs <- r
		fmt.Println(<-r.reply)
	}
	close(reqs)
}
