// want: ok
// source: written for chanfuzz as a held-out probe of slices and builtins (2026-12-01, fourth round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a 3-index slice with no capacity makes each append copy: the two appends do not alias

package main

func main() {
	base := make([]chan int, 0, 2)
	c1 := make(chan int)
	left := append(base[:0:0], c1)
	_ = append(base[:0:0], make(chan int))
	go func() { <-left[0] }()
	c1 <- 1
}
