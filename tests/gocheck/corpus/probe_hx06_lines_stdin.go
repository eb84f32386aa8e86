// want: ok
// source: written for chanfuzz by gocheck's author (2026-12-05; confirmed with Go 1.26), not held out, in the style of a goroutine per line of standard input (confirmed with two lines on stdin)
// what: a goroutine closes the output after the WaitGroup; main drains it
package main

import (
	"bufio"
	"fmt"
	"os"
	"sync"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	var wg sync.WaitGroup
	out := make(chan int)
	for sc.Scan() {
		line := sc.Text()
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- len(line)
		}()
	}
	go func() { wg.Wait(); close(out) }()
	total := 0
	for n := range out {
		total += n
	}
	fmt.Println(total)
}
