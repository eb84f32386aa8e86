// want: ok
// source: written for chanfuzz as a probe of everyday idioms (2026-12-05; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: a line-counting pipeline over strings.Reader with bufio.Scanner, fan-out and fan-in with a WaitGroup closer

package main

import (
	"bufio"
	"fmt"
	"strings"
	"sync"
)

func main() {
	text := "a b\nc d e\nf\n"
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	counts := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for l := range lines {
				counts <- len(strings.Fields(l))
			}
		}()
	}
	go func() { wg.Wait(); close(counts) }()
	total := 0
	for c := range counts {
		total += c
	}
	fmt.Println(total)
}
