// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-05; confirmed with Go 1.26), in the style of a log/metrics batcher with a size limit and a timer flush
// what: the batcher flushes what is left when its input is closed and reports the count on a
//   done channel; Close closes the input and reads that count, with no second request channel
package main

import (
	"fmt"
	"time"
)

type Batcher struct {
	in   chan string
	done chan int
}

func (b *Batcher) loop() {
	var batch []string
	ticker := time.NewTicker(5 * time.Millisecond)
	defer ticker.Stop()
	flush := func() int {
		n := len(batch)
		batch = batch[:0]
		return n
	}
	for {
		select {
		case s, ok := <-b.in:
			if !ok {
				b.done <- flush()
				return
			}
			batch = append(batch, s)
			if len(batch) == 3 {
				fmt.Println("size flush", flush())
			}
		case <-ticker.C:
			if len(batch) > 0 {
				fmt.Println("timer flush", flush())
			}
		}
	}
}

func (b *Batcher) Close() int {
	close(b.in)
	return <-b.done
}

func main() {
	b := &Batcher{in: make(chan string), done: make(chan int)}
	go b.loop()
	for _, s := range []string{"a", "b", "c", "d"} {
		b.in <- s
	}
	fmt.Println("final flush", b.Close())
}
