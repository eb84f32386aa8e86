// want: ok
// source: written for chanfuzz as a held-out probe in the manner of real code bases (2026-12-01, third round; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: raft-like node loop: nil-able ready channel in select, switch with fallthrough, goto,
//   labelled break

package main

import "fmt"

type msgType int

const (
	MsgHup msgType = iota
	MsgVote
	MsgApp
	MsgSnap
)

type Node struct {
	propc  chan msgType
	readyc chan int
	stopc  chan struct{}
	done   chan struct{}
}

func (n *Node) run() {
	defer close(n.done)
	pending := 0
	var readyc chan int
loop:
	for {
		if pending > 0 {
			readyc = n.readyc
		} else {
			readyc = nil
		}
		select {
		case m := <-n.propc:
			switch m {
			case MsgSnap:
				pending++
				fallthrough
			case MsgApp:
				pending++
			case MsgHup, MsgVote:
				goto next
			}
		case readyc <- pending:
			pending = 0
		case <-n.stopc:
			break loop
		}
	next:
	}
}

func main() {
	n := &Node{propc: make(chan msgType), readyc: make(chan int), stopc: make(chan struct{}), done: make(chan struct{})}
	go n.run()
	for _, m := range []msgType{MsgApp, MsgHup, MsgSnap, MsgVote} {
		n.propc <- m
	}
	total := 0
	for total < 3 {
		total += <-n.readyc
	}
	close(n.stopc)
	<-n.done
	fmt.Println("applied", total)
}
