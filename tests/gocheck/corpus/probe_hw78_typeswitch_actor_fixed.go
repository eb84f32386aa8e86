// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a state-owning goroutine driven by a chan any of request structs (type switch)
// what: the owner loop closes the stop request's done channel (deferred) as it exits, so
//   Stop() returns
package main

import "fmt"

type getReq struct{ reply chan int }
type incReq struct{ by int }
type stopReq struct{ done chan struct{} }

type Counter struct{ reqs chan any }

func (c *Counter) loop() {
	n := 0
	for m := range c.reqs {
		switch r := m.(type) {
		case incReq:
			n += r.by
		case getReq:
			r.reply <- n
		case stopReq:
			fmt.Println("stopping at", n)
			defer close(r.done)
			return
		default:
			panic(fmt.Sprintf("unknown %T", m))
		}
	}
}

func (c *Counter) Get() int {
	reply := make(chan int)
	c.reqs <- getReq{reply}
	return <-reply
}

func (c *Counter) Stop() {
	done := make(chan struct{})
	c.reqs <- stopReq{done}
	<-done
}

func main() {
	c := &Counter{reqs: make(chan any)}
	go c.loop()
	c.reqs <- incReq{2}
	c.reqs <- incReq{3}
	fmt.Println(c.Get())
	c.Stop()
}
