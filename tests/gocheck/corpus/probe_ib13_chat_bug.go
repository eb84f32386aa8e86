// want: channel-safety
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of The Go Programming Language (Donovan & Kernighan) 8.10, the chat server (broadcaster with entering, leaving and messages channels)
// what: the broadcaster closes a client's channel when it receives it on leaving, but
//   handleConn, after `s.leaving <- ch`, also does `close(ch)` itself "to stop its writer":
//   whichever of the two closes runs second panics with close of closed channel (the first
//   client to leave already triggers it).

package main

import (
	"fmt"
	"sync"
)

type client chan<- string // an outgoing message channel

type server struct {
	entering chan client
	leaving  chan client
	messages chan string // all incoming client messages
	done     chan struct{}
}

func (s *server) broadcaster(stopped chan<- struct{}) {
	clients := make(map[client]bool) // all connected clients
	for {
		select {
		case msg := <-s.messages:
			// Broadcast incoming message to all
			// clients' outgoing message channels.
			for cli := range clients {
				cli <- msg
			}
		case cli := <-s.entering:
			clients[cli] = true
		case cli := <-s.leaving:
			delete(clients, cli)
			close(cli)
		case <-s.done:
			for cli := range clients {
				close(cli)
			}
			close(stopped)
			return
		}
	}
}

func clientWriter(who string, ch <-chan string, wg *sync.WaitGroup) {
	defer wg.Done()
	n := 0
	for range ch {
		n++ // NOTE: a real writer would write msg to the connection
	}
	fmt.Printf("%s saw %d messages\n", who, n)
}

func (s *server) handleConn(who string, lines []string, wg *sync.WaitGroup) {
	defer wg.Done()
	ch := make(chan string) // outgoing client messages
	wg.Add(1)
	go clientWriter(who, ch, wg)

	s.messages <- who + " has arrived"
	s.entering <- ch
	for _, line := range lines {
		s.messages <- who + ": " + line
	}
	s.leaving <- ch
	close(ch) // stop our writer
	s.messages <- who + " has left"
}

func main() {
	s := &server{
		entering: make(chan client),
		leaving:  make(chan client),
		messages: make(chan string),
		done:     make(chan struct{}),
	}
	stopped := make(chan struct{})
	go s.broadcaster(stopped)

	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		who := fmt.Sprintf("127.0.0.1:%d", 50000+i)
		go s.handleConn(who, []string{"hi", "anyone here?", "bye"}, &wg)
	}
	wg.Wait()
	close(s.done)
	<-stopped
}
