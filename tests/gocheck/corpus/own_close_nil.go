// want: channel-safety
// source: written for this corpus
// what: a channel variable that is never made is closed: close of nil channel

package main

import "fmt"

type server struct {
	quit chan struct{}
}

func (s *server) Stop() { close(s.quit) }

func main() {
	s := &server{}
	fmt.Println("stopping")
	s.Stop()
}
