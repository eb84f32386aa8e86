// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of an actor/mailbox loop that re-enqueues a failed message to itself
// what: the actor keeps failed jobs on a local retry list instead of sending to its own mailbox,
//   and handles them after the mailbox is closed
package main

import "fmt"

type job struct {
	id    int
	tries int
}

func actor(mailbox chan job, done chan<- int) {
	handled := 0
	var retry []job
	for j := range mailbox {
		if j.id == 0 && j.tries < 1 {
			j.tries++
			retry = append(retry, j)
			continue
		}
		handled++
	}
	handled += len(retry)
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
