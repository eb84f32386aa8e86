// want: global-deadlock
// source: Godel (ICSE'18) Table 3, the not-live public program of golang/go issue 12734 (dingo-hunter examples/github-golang-go-issue-12734); rewritten without net/http
// what: ten goroutines send one value each; main receives in an endless loop and blocks for
//   ever after the tenth (with net/http imported, as in the issue, Go's detector stays silent)

package main

import "fmt"

func testA(c chan<- int) {
	c <- 1
}

func main() {
	c := make(chan int)
	for i := 0; i < 10; i++ {
		go testA(c)
	}
	for {
		fmt.Println(<-c)
	}
}
