// want: ok
// source: Rosetta Code task 'Synchronous concurrency', rewritten
// what: a reader goroutine sends lines to a printer goroutine, closes the line channel at the
//   end, and then receives the printer's line count on a second channel.
package main

import (
	"bufio"
	"fmt"
	"strings"
)

const text = `Here lies a poor woman who always was tired,
She lived in a house where help was not hired.
Her last words on earth were: Dear friends, I am going
Where washing ain't done nor sweeping nor sewing.`

func printer(lines <-chan string, count chan<- int) {
	n := 0
	for l := range lines {
		fmt.Println(l)
		n++
	}
	count <- n
}

func main() {
	lines := make(chan string)
	count := make(chan int)
	done := make(chan struct{})
	go printer(lines, count)
	go func() { // reader
		defer close(done)
		sc := bufio.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		fmt.Println("printer reported", <-count, "lines")
	}()
	<-done
}
