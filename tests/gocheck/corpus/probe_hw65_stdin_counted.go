// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a line-per-goroutine processor reading os.Stdin with bufio.Scanner
// what: one goroutine per non-empty input line sends its word count; main counts the goroutines
//   it started (n++) and receives exactly that many results
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	counts := make(chan int)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		n++
		go func() { counts <- len(strings.Fields(line)) }()
		if n == 3 {
			break
		}
	}
	total := 0
	for i := 0; i < n; i++ {
		total += <-counts
	}
	fmt.Println("words:", total)
}
