// want: ok
// source: Rosetta Code task 'Rendezvous', rewritten
// what: main and reserve printers serve requests with per-request reply channels; the main one
//   forwards to the reserve when out of ink; main waits for the writers, then stops both printers.
package main

import (
	"errors"
	"fmt"
	"sync"
)

type request struct {
	line  string
	reply chan error
}

func printer(name string, ink int, in <-chan request, backup chan<- request, done chan<- struct{}) {
	defer func() { done <- struct{}{} }()
	for req := range in {
		if ink > 0 {
			ink--
			fmt.Printf("%s: %s\n", name, req.line)
			req.reply <- nil
		} else if backup != nil {
			backup <- req // the reserve replies
		} else {
			req.reply <- errors.New(name + " out of ink")
		}
	}
}

func main() {
	mainP, reserve := make(chan request), make(chan request)
	done := make(chan struct{})
	go printer("main", 5, mainP, reserve, done)
	go printer("reserve", 5, reserve, nil, done)

	var writers sync.WaitGroup
	for _, poem := range [][]string{
		{"Humpty Dumpty sat on a wall.", "Humpty Dumpty had a great fall.", "All the king's horses"},
		{"Mother Goose", "when she wanted", "to wander", "would ride through the air"},
	} {
		writers.Add(1)
		go func(lines []string) {
			defer writers.Done()
			for _, l := range lines {
				r := request{l, make(chan error)}
				mainP <- r
				if err := <-r.reply; err != nil {
					fmt.Println("error:", err)
					return
				}
			}
		}(poem)
	}
	writers.Wait()
	close(mainP)
	<-done // main printer has stopped forwarding
	close(reserve)
	<-done
}
