// want: partial-deadlock
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: a request/reply server over a chan chan int stops on quit; a client goroutine
//   started after the stop sends its request to nobody and blocks for ever

package main

import "fmt"

type server struct {
	reqs chan chan int
	quit chan struct{}
	done chan struct{}
}

func (s *server) loop() {
	defer close(s.done)
	n := 0
	for {
		select {
		case r := <-s.reqs:
			n++
			r <- n
		case <-s.quit:
			return
		}
	}
}

func (s *server) get() int {
	r := make(chan int)
	s.reqs <- r
	return <-r
}

func main() {
	s := &server{reqs: make(chan chan int), quit: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	fmt.Println(s.get())
	close(s.quit)
	<-s.done
	go func() { fmt.Println(s.get()) }()
}
