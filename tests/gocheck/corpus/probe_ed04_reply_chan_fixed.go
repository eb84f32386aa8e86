// want: ok
// source: written for chanfuzz as a held-out probe of language and library edges (2026-12-01; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: Clients send a request carrying a reply channel with room for one answer to a server loop whose lookup is a
//   closure in a struct field; a client that gives up after cancel no longer strands the server, which then sees quit.

package main

import "fmt"

type request struct {
	key   string
	reply chan int
}

type server struct {
	reqs   chan request
	quit   chan struct{}
	lookup func(string) int
}

func (s *server) serve() {
	for {
		select {
		case r := <-s.reqs:
			r.reply <- s.lookup(r.key)
		case <-s.quit:
			return
		}
	}
}

func ask(reqs chan<- request, key string, cancel <-chan struct{}) (int, bool) {
	r := request{key: key, reply: make(chan int, 1)}
	select {
	case reqs <- r:
	case <-cancel:
		return 0, false
	}
	select {
	case v := <-r.reply:
		return v, true
	case <-cancel:
		return 0, false
	}
}

func main() {
	data := map[string]int{"a": 1, "b": 2}
	s := &server{reqs: make(chan request), quit: make(chan struct{}),
		lookup: func(k string) int { return data[k] }}
	go s.serve()
	cancel := make(chan struct{})
	results := make(chan int, 2)
	for _, k := range []string{"a", "b"} {
		go func() {
			v, ok := ask(s.reqs, k, cancel)
			if !ok {
				v = -1
			}
			results <- v
		}()
	}
	first := <-results
	close(cancel) // the first answer is enough
	<-results
	close(s.quit)
	fmt.Println("first:", first)
}
