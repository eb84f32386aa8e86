// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a CLI/daemon command table (map[string]handler) dispatched concurrently
// what: main ranges over a map of handlers (random order), starts each in a goroutine with its
//   own reply channel, and collects every reply; all sends are matched
package main

import (
	"fmt"
	"sort"
	"strings"
)

type handler func(args []string) string

func main() {
	commands := map[string]handler{
		"echo":  func(a []string) string { return strings.Join(a, " ") },
		"upper": func(a []string) string { return strings.ToUpper(strings.Join(a, " ")) },
		"count": func(a []string) string { return fmt.Sprint(len(a)) },
	}
	args := strings.Fields("hello  gopher")

	type reply struct {
		name, out string
	}
	replies := make(chan reply)
	started := 0
	for name, h := range commands {
		started++
		go func(name string, h handler) {
			replies <- reply{name, h(args)}
		}(name, h)
	}
	var lines []string
	for i := 0; i < started; i++ {
		r := <-replies
		lines = append(lines, r.name+": "+r.out)
	}
	sort.Strings(lines)
	fmt.Println(strings.Join(lines, "\n"))
}
