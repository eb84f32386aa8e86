// want: partial-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of an etcd/raft node with a proposal channel and a stop channel
// what: Propose selects only on the proposal channel and the caller's context, not on the node's
//   done channel; a lease renewal proposed after Stop blocks for ever because the run loop has exited.
package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

type proposal struct {
	data []byte
	done chan error
}

type node struct {
	propc chan proposal
	stopc chan struct{}
	done  chan struct{}
	log   [][]byte
	term  uint64
}

var errEmpty = errors.New("raft: empty proposal")

func startNode(term uint64) *node {
	n := &node{
		propc: make(chan proposal),
		stopc: make(chan struct{}),
		done:  make(chan struct{}),
		term:  term,
	}
	go n.run()
	return n
}

func (n *node) run() {
	defer close(n.done)
	for {
		select {
		case p := <-n.propc:
			if len(p.data) == 0 {
				p.done <- errEmpty
				continue
			}
			n.log = append(n.log, p.data)
			p.done <- nil
		case <-n.stopc:
			return
		}
	}
}

// Propose hands data to the raft loop and waits until it is appended.
func (n *node) Propose(ctx context.Context, data []byte) error {
	p := proposal{data: data, done: make(chan error, 1)}
	select {
	case n.propc <- p:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (n *node) Stop() {
	close(n.stopc)
	<-n.done
}

func main() {
	n := startNode(7)
	ctx := context.Background()
	for _, cmd := range []string{"put /a 1", "put /b 2", "", "del /a"} {
		if err := n.Propose(ctx, []byte(cmd)); err != nil {
			fmt.Printf("propose %q: %v\n", cmd, err)
		}
	}
	n.Stop()
	fmt.Println("applied", len(n.log), "entries in term", n.term)

	// The lease keeper does not know the node is gone.
	res := make(chan error, 1)
	go func() {
		res <- n.Propose(context.Background(), []byte("lease renew 42"))
	}()
	select {
	case err := <-res:
		fmt.Println("lease renewal:", err)
	case <-time.After(20 * time.Millisecond):
		fmt.Println("lease renewal still pending at shutdown")
	}
}
