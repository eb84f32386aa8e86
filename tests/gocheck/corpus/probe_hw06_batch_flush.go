// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a log/metrics batcher with a size limit and a timer flush
// what: the batcher exits as soon as its input is closed; Close() closes the input and then
//   asks for a final flush on the unbuffered flushReq channel, which nobody receives any more
package main

import (
	"fmt"
	"time"
)

type Batcher struct {
	in       chan string
	flushReq chan chan int
}

func (b *Batcher) loop() {
	var batch []string
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	flush := func() int {
		n := len(batch)
		batch = batch[:0]
		return n
	}
	for {
		select {
		case s, ok := <-b.in:
			if !ok {
				return // BUG: exits before serving the final flush request
			}
			batch = append(batch, s)
			if len(batch) == 3 {
				fmt.Println("size flush", flush())
			}
		case <-timer.C:
			fmt.Println("timer flush", flush())
			timer.Reset(time.Hour)
		case reply := <-b.flushReq:
			reply <- flush()
		}
	}
}

func (b *Batcher) Close() int {
	close(b.in)
	reply := make(chan int)
	b.flushReq <- reply
	return <-reply
}

func main() {
	b := &Batcher{in: make(chan string), flushReq: make(chan chan int)}
	go b.loop()
	for _, s := range []string{"a", "b", "c", "d"} {
		b.in <- s
	}
	fmt.Println("final flush", b.Close())
}
