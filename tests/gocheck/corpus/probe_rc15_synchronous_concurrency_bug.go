// want: global-deadlock
// source: Rosetta Code task 'Synchronous concurrency', rewritten with a protocol mix-up
// what: the reader asks for the line count before closing the line channel; the printer only
//   reports the count after the channel is closed, so reader, printer and main all block.
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

func reader(lines chan<- string, count <-chan int, done chan<- struct{}) {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		lines <- sc.Text()
	}
	n := <-count // waits for the printer before telling it we are finished
	close(lines)
	fmt.Println("printer reported", n, "lines")
	close(done)
}

func main() {
	lines := make(chan string)
	count := make(chan int)
	done := make(chan struct{})
	go printer(lines, count)
	go reader(lines, count, done)
	<-done
}
