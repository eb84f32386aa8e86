// want: partial-deadlock
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/etcd/6857 (etcd-io/etcd PR 6857); rewritten as package main
// what: Status() sends a reply channel to the node's run loop; when Stop() wins the race, run
//   closes done and returns, and the Status goroutine blocks for ever on n.status (a leak;
//   interleaving-dependent)

package main

type Status struct{}

type node struct {
	status chan chan Status
	stop   chan struct{}
	done   chan struct{}
}

func (n *node) Status() Status {
	c := make(chan Status)
	n.status <- c
	return <-c
}

func (n *node) run() {
	for {
		select {
		case c := <-n.status:
			c <- Status{}
		case <-n.stop:
			close(n.done)
			return
		}
	}
}

func (n *node) Stop() {
	select {
	case n.stop <- struct{}{}:
	case <-n.done:
		return
	}
	<-n.done
}

func main() {
	n := &node{
		status: make(chan chan Status),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go n.run()
	go n.Status()
	n.Stop()
}
