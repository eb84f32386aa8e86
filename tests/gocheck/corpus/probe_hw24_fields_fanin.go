// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a word-count fan-out over input lines merged by a closer goroutine
// what: one goroutine per line counts fields and sends on a shared channel; a closer waits on the
//   WaitGroup and closes it; main ranges until closed. Every send has a receiver
package main

import (
	"fmt"
	"strings"
	"sync"
)

func main() {
	input := "the quick brown fox\njumps over\n\nthe lazy dog"
	lines := strings.Split(input, "\n")
	counts := make(chan int)
	var wg sync.WaitGroup
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		wg.Add(1)
		go func(l string) {
			defer wg.Done()
			counts <- len(strings.Fields(l))
		}(line)
	}
	go func() {
		wg.Wait()
		close(counts)
	}()
	total := 0
	for c := range counts {
		total += c
	}
	fmt.Println("words:", total)
}
