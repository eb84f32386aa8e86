// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an actor/mailbox loop that re-enqueues a failed message to itself
// what: the actor's handler retries a failed job by sending it back into its own mailbox; when
//   the mailbox buffer is full the actor blocks on its own send, and main blocks sending more
package main

import "fmt"

type job struct {
	id    int
	tries int
}

func actor(mailbox chan job, done chan<- int) {
	handled := 0
	for j := range mailbox {
		if j.id == 0 && j.tries < 1 {
			j.tries++
			mailbox <- j // BUG: can block: the actor is its mailbox's only reader
			continue
		}
		handled++
	}
	done <- handled
}

func main() {
	mailbox := make(chan job, 1)
	done := make(chan int)
	go actor(mailbox, done)
	for i := 0; i < 3; i++ {
		mailbox <- job{id: i}
	}
	close(mailbox)
	fmt.Println("handled", <-done)
}
