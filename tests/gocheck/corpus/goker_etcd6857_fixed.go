// want: ok
// source: GoBench goker (github.com/timmyyuan/gobench) gobench/goker/blocking/etcd/6857 the fix of etcd-io/etcd PR 6857 (Status also selects on done); rewritten as package main
// what: Status() selects between handing its reply channel to the run loop and the node's done
//   channel, so it returns when Stop() has ended the run loop

package main

type Status struct{}

type node struct {
	status chan chan Status
	stop   chan struct{}
	done   chan struct{}
}

func (n *node) Status() Status {
	c := make(chan Status)
	select {
	case n.status <- c:
		return <-c
	case <-n.done:
		return Status{}
	}
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
