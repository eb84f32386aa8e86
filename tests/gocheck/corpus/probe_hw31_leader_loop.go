// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a raft/leader-election node's run loop (select over state-change channels)
// what: a node loop switches between follower and leader on election-timeout and step-down
//   signals and stops on ctx cancel; main drives two transitions, cancels and waits for the loop
package main

import (
	"context"
	"fmt"
)

type state int

const (
	follower state = iota
	leader
)

type node struct {
	electionTimeout chan struct{}
	stepDown        chan uint64
	status          chan state
}

func (n *node) run(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	st := follower
	term := uint64(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.electionTimeout:
			if st == follower {
				term++
				st = leader
			}
		case t := <-n.stepDown:
			if t > term {
				term = t
				st = follower
			}
		case n.status <- st:
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	n := &node{
		electionTimeout: make(chan struct{}),
		stepDown:        make(chan uint64),
		status:          make(chan state),
	}
	done := make(chan struct{})
	go n.run(ctx, done)
	n.electionTimeout <- struct{}{}
	fmt.Println("leader?", <-n.status == leader)
	n.stepDown <- 5
	fmt.Println("leader?", <-n.status == leader)
	cancel()
	<-done
}
