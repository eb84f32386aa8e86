// want: global-deadlock
// source: written for chanfuzz as a probe (round 13, language and library corners; run and confirmed, see docs/gocheck-report.md)
// what: sinks are an interface; the buffered sink never blocks but the unbuffered
//   "syncSink" waits for a reader that main only starts after wg.Wait

package main

import (
	"fmt"
	"sync"
)

type Sink interface{ Put(v int) }

type bufSink struct{ ch chan int }

func (s bufSink) Put(v int) { s.ch <- v }

type syncSink struct{ ch chan int }

func (s *syncSink) Put(v int) { s.ch <- v }

func main() {
	sinks := []Sink{bufSink{make(chan int, 1)}, &syncSink{make(chan int)}}
	var wg sync.WaitGroup
	for _, s := range sinks {
		wg.Go(func() { s.Put(1) })
	}
	wg.Wait()
	fmt.Println(<-sinks[1].(*syncSink).ch)
}
