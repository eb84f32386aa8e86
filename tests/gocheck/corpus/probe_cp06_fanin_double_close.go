// want: channel-safety
// source: written for chanfuzz as a held-out probe of classic concurrency patterns (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a fan-in of two message sources where each forwarder defers close(out) as if it owned the
//   channel; the second forwarder to finish closes out again (or sends on it after the first closed it).

package main

import "fmt"

func boring(msg string, n int) <-chan string {
	c := make(chan string)
	go func() {
		defer close(c)
		for i := 0; i < n; i++ {
			c <- fmt.Sprintf("%s %d", msg, i)
		}
	}()
	return c
}

func fanIn(inputs ...<-chan string) <-chan string {
	out := make(chan string)
	for _, in := range inputs {
		go func() {
			defer close(out) // BUG: shared output closed by every forwarder
			for s := range in {
				out <- s
			}
		}()
	}
	return out
}

func main() {
	for s := range fanIn(boring("joe", 2), boring("ann", 2)) {
		fmt.Println(s)
	}
	fmt.Println("leaving")
}
