// want: ok
// source: written for chanfuzz as a held-out probe (round 13, generic higher-order concurrency), modelled on fan-out helpers that build a []func() of tasks and run each in a goroutine
// what: each task closure captures the range variables i and u; with Go 1.22 per-iteration loop
//   variables every closure sends on its own chans[i], so main's in-order receives all match
//   (under the pre-1.22 shared variable all tasks would send on the last channel).

package main

import (
	"fmt"
	"strings"
)

type Task func()

func runAll(tasks []Task) {
	for _, t := range tasks {
		go t()
	}
}

func normalizeAll(names []string) []string {
	chans := make([]chan string, len(names))
	for i := range chans {
		chans[i] = make(chan string)
	}
	tasks := make([]Task, 0, len(names))
	for i, u := range names {
		tasks = append(tasks, func() {
			chans[i] <- strings.ToLower(strings.TrimSpace(u))
		})
	}
	runAll(tasks)
	out := make([]string, len(names))
	for i := range chans {
		out[i] = <-chans[i]
	}
	return out
}

func main() {
	fmt.Println(normalizeAll([]string{" Alice", "BOB ", "carol"}))
}
